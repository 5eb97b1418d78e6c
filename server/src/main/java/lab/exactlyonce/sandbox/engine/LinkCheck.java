package lab.exactlyonce.sandbox.engine;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Has the JVM verify a snippet's classes before they are cached, without running any of their code: Janino now and
 * then writes bytecode the verifier refuses ({@code do { x = 1; } while (false);} in 3.1.12). Refused here, that is a
 * compile problem at the line of the refused instruction; found at run time it would be the sandbox's failure, in
 * the middle of a run.
 */
final class LinkCheck {
  /** "Location:\n    Main.main([Ljava/lang/String;)V @14: goto" in a VerifyError's message. */
  private static final Pattern LOCATION = Pattern.compile("Location:\\s+([\\w$/.]+)\\.([\\w$<>]+)(\\([^)\\s]*\\)\\S+) @(\\d+)");

  private LinkCheck() {
  }

  /** Null when every class links, else the problem. */
  static Diagnostic check(Map<String, byte[]> classes) {
    SnippetLoader loader = new SnippetLoader(classes);
    for (String name : classes.keySet()) {
      try {
        // Reflecting on the declared methods links the class, and linking verifies it; nothing is initialised.
        Class.forName(name, false, loader).getDeclaredMethods();
      } catch (VerifyError | ClassFormatError e) {
        return diagnostic(e, classes);
      } catch (ClassNotFoundException | LinkageError e) {
        return null;   // not a compiler bug: the bytecode check has refused what does not resolve
      }
    }
    return null;
  }

  private static Diagnostic diagnostic(LinkageError e, Map<String, byte[]> classes) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    String detail = "it produced bytecode the JVM refuses: " + message.lines().findFirst().orElse(message).trim();
    Matcher m = LOCATION.matcher(message);
    int line = m.find() ? lineAt(classes.get(m.group(1).replace('/', '.')), m.group(2), m.group(3),
        Integer.parseInt(m.group(4))) : 0;
    return new Diagnostic(line, 0, SnippetCompiler.couldNotHandle(detail));
  }

  /** The source line of the instruction at {@code offset} in the method, or 0. */
  static int lineAt(byte[] classFile, String method, String descriptor, int offset) {
    if (classFile == null) return 0;
    Map<Label, Integer> starts = new LinkedHashMap<>();
    // Labels get their offsets from a writer; one that shares the reader's constant pool writes the same offsets.
    ClassReader reader = new ClassReader(classFile);
    reader.accept(new ClassVisitor(Opcodes.ASM9, new ClassWriter(reader, 0)) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor writer = super.visitMethod(access, name, desc, signature, exceptions);
        if (!name.equals(method) || !desc.equals(descriptor)) return writer;
        return new MethodVisitor(Opcodes.ASM9, writer) {
          @Override
          public void visitLineNumber(int line, Label start) {
            starts.putIfAbsent(start, line);
            super.visitLineNumber(line, start);
          }
        };
      }
    }, 0);
    TreeMap<Integer, Integer> lines = new TreeMap<>();
    starts.forEach((label, line) -> lines.putIfAbsent(label.getOffset(), line));
    if (lines.isEmpty()) return 0;
    Map.Entry<Integer, Integer> at = lines.floorEntry(offset);
    return at != null ? at.getValue() : lines.firstEntry().getValue();
  }
}
