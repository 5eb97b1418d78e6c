package lab.exactlyonce.sandbox.engine;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A learner method that implements an interface method without being public. javac refuses it ("attempting to
 * assign weaker access privileges"); Janino compiles it, and the call through the interface then fails at run time
 * with a bare {@code IllegalAccessError}. Found here at the method's line instead, for the interfaces the learner
 * and an exercise declare and the JDK's.
 */
final class WeakerAccess {
  private record Method(String name, String descriptor, int access, int line) {}

  private record Declared(String name, boolean isInterface, String[] interfaces, List<Method> methods) {}

  private WeakerAccess() {
  }

  static List<Diagnostic> problems(Map<String, byte[]> learner, Map<String, byte[]> provided) {
    Map<String, Declared> known = new HashMap<>();
    for (byte[] bytes : provided.values()) put(known, read(bytes));
    Map<String, Declared> mine = new LinkedHashMap<>();
    for (byte[] bytes : learner.values()) {
      Declared d = read(bytes);
      mine.put(d.name, d);
      put(known, d);
    }
    List<Diagnostic> problems = new ArrayList<>();
    for (Declared type : mine.values()) {
      if (type.isInterface) continue;
      Map<String, String> required = new LinkedHashMap<>(); // name + descriptor -> the interface that declares it
      for (String anInterface : type.interfaces) collect(anInterface, known, required, new HashSet<>());
      for (Method m : type.methods) {
        String owner = required.get(m.name + m.descriptor);
        if (owner == null || (m.access & Opcodes.ACC_PUBLIC) != 0 || (m.access & Opcodes.ACC_STATIC) != 0) continue;
        problems.add(new Diagnostic(m.line, 0, "the method " + m.name + " of " + simple(type.name) + " must be public:"
            + " it implements " + simple(owner) + "." + m.name + ", and every method of an interface is public"));
      }
    }
    problems.sort(Comparator.comparingInt(Diagnostic::line));
    return problems;
  }

  private static void collect(String anInterface, Map<String, Declared> known, Map<String, String> required,
                              Set<String> seen) {
    Declared declared = known.computeIfAbsent(anInterface, WeakerAccess::jdkInterface);
    if (declared == null || !seen.add(anInterface)) return;
    for (Method m : declared.methods) {
      if ((m.access & Opcodes.ACC_ABSTRACT) != 0) required.putIfAbsent(m.name + m.descriptor, anInterface);
    }
    for (String parent : declared.interfaces) collect(parent, known, required, seen);
  }

  /** A JDK interface the learner implements ({@code Runnable}, {@code Comparator}), or null. */
  private static Declared jdkInterface(String internalName) {
    try {
      Class<?> type = Class.forName(internalName.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
      if (!type.isInterface()) return null;
      List<Method> methods = new ArrayList<>();
      for (java.lang.reflect.Method m : type.getMethods()) {
        if (java.lang.reflect.Modifier.isAbstract(m.getModifiers())) {
          methods.add(new Method(m.getName(), Type.getMethodDescriptor(m), Opcodes.ACC_PUBLIC | Opcodes.ACC_ABSTRACT, 0));
        }
      }
      return new Declared(internalName, true, new String[0], methods);
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  private static void put(Map<String, Declared> known, Declared d) {
    known.put(d.name, d);
  }

  private static Declared read(byte[] bytes) {
    ClassReader reader = new ClassReader(bytes);
    List<Method> methods = new ArrayList<>();
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] ex) {
        if (name.startsWith("<")) return null;
        int[] line = new int[1];
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitLineNumber(int number, Label start) {
            if (line[0] == 0) line[0] = number;
          }

          @Override
          public void visitEnd() {
            methods.add(new Method(name, descriptor, access, line[0]));
          }
        };
      }
    }, ClassReader.SKIP_FRAMES);
    return new Declared(reader.getClassName(), (reader.getAccess() & Opcodes.ACC_INTERFACE) != 0,
        reader.getInterfaces(), methods);
  }

  private static String simple(String internalName) {
    String dotted = Type.getObjectType(internalName).getClassName();
    return dotted.substring(dotted.lastIndexOf('.') + 1).replace('$', '.');
  }
}
