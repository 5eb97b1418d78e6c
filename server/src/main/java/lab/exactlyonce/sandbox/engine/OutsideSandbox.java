package lab.exactlyonce.sandbox.engine;

import org.codehaus.commons.compiler.Location;
import org.codehaus.janino.Token;
import org.codehaus.janino.TokenType;

import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds names of JDK classes outside the modules the sandbox compiles against ({@code java.base}, and
 * {@code jdk.unsupported} so the bytecode check can name {@code sun.misc.Unsafe}): {@code java.beans.XMLDecoder},
 * {@code java.net.http.HttpClient}, {@code import java.awt.*;}. Janino cannot resolve them (the compile class loader
 * refuses them and the workers start with {@code --limit-modules}), so it would answer with puzzles such as
 * {@code Cannot determine simple type name "java"}; these are refused up front instead, naming the class and its
 * module. Works on the tokens, so every shape is found the same way (imports, field and parameter types, {@code new},
 * static calls, casts, type arguments, {@code throws}), and comments and strings never match. For a source that
 * failed to compile it also names misspelt JDK classes ({@link #clarified}).
 */
final class OutsideSandbox {
  private static final Set<String> COMPILED_AGAINST = Set.of("java.base", "jdk.unsupported");

  /** Package to module, over every module of the runtime image (also those --limit-modules leaves out). */
  private static final class Packages {
    static final Map<String, String> MODULE_OF = modules();

    private static Map<String, String> modules() {
      Map<String, String> moduleOf = new HashMap<>();
      for (ModuleReference module : ModuleFinder.ofSystem().findAll()) {
        for (String pkg : module.descriptor().packages()) moduleOf.put(pkg, module.descriptor().name());
      }
      return moduleOf;
    }
  }

  private OutsideSandbox() {
  }

  /** A dotted name in the source ({@code java.util.logging.Logger}, {@code java.beans.*}) at its first token. */
  private record DottedName(List<String> parts, Location location) {
  }

  /** One diagnostic per use (at its first token), in source order; empty when the source names none. */
  static List<Diagnostic> uses(String source) {
    Set<Diagnostic> found = new LinkedHashSet<>();
    for (DottedName name : dottedNames(source)) {
      Diagnostic d = outside(name.parts(), name.location());
      if (d != null) found.add(d);
    }
    return List.copyOf(found);
  }

  /**
   * Janino's errors for a source that failed to compile, with each misspelt JDK class named plainly: for
   * {@code java.util.Lisst} Janino says {@code Cannot determine simple type name "java"} and more on that line;
   * those lines get "java.util.Lisst: java.util has no class Lisst (check the spelling)" instead.
   */
  static List<Diagnostic> clarified(String source, List<Diagnostic> errors) {
    List<Diagnostic> unknown = new ArrayList<>();
    Set<Integer> lines = new HashSet<>();
    for (DottedName name : dottedNames(source)) {
      Diagnostic d = unknownClass(name.parts(), name.location());
      if (d != null && lines.add(d.line())) unknown.add(d);
    }
    if (unknown.isEmpty()) return errors;
    List<Diagnostic> out = new ArrayList<>(unknown);
    for (Diagnostic e : errors) if (!lines.contains(e.line())) out.add(e);
    out.sort(Comparator.comparingInt(Diagnostic::line).thenComparingInt(Diagnostic::column));
    return out;
  }

  /** The diagnostic for a name whose package is one the sandbox has but which has no such class, or null. */
  private static Diagnostic unknownClass(List<String> parts, Location location) {
    int classAt = 0;
    String pkg = null;
    StringBuilder prefix = new StringBuilder();
    for (int k = 0; k < parts.size() - 1; k++) {
      if (k > 0) prefix.append('.');
      prefix.append(parts.get(k));
      if (Packages.MODULE_OF.containsKey(prefix.toString())) {
        pkg = prefix.toString();
        classAt = k + 1;
      }
    }
    if (pkg == null || !COMPILED_AGAINST.contains(Packages.MODULE_OF.get(pkg)) || parts.get(classAt).equals("*")) return null;
    String simple = parts.get(classAt);
    try {
      Class.forName(pkg + "." + simple, false, ClassLoader.getPlatformClassLoader());
      return null;
    } catch (ClassNotFoundException | LinkageError e) {
      return new Diagnostic(location.getLineNumber(), location.getColumnNumber(),
          pkg + "." + simple + ": " + pkg + " has no class " + simple + " (check the spelling)");
    }
  }

  private static List<DottedName> dottedNames(String source) {
    // as far as it scans: what was read is still checked, and the compiler names a lexical error
    List<Token> tokens = SourceTokens.of(source).tokens();
    List<DottedName> names = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      if (!isIdentifier(tokens.get(i)) || i > 0 && tokens.get(i - 1).value.equals(".")) continue;
      List<String> parts = new ArrayList<>();
      int j = i;
      parts.add(tokens.get(j).value);
      while (j + 2 < tokens.size() && tokens.get(j + 1).value.equals(".")
          && (isIdentifier(tokens.get(j + 2)) || tokens.get(j + 2).value.equals("*"))) {
        parts.add(tokens.get(j + 2).value);
        j += 2;
      }
      if (parts.size() > 1) names.add(new DottedName(List.copyOf(parts), tokens.get(i).getLocation()));
      i = j;
    }
    return names;
  }

  /** The diagnostic for a dotted name whose longest package prefix is in a module the sandbox lacks, or null. */
  private static Diagnostic outside(List<String> parts, Location location) {
    String pkg = null;
    String module = null;
    int classAt = 0;
    StringBuilder prefix = new StringBuilder();
    for (int k = 0; k < parts.size(); k++) {
      if (parts.get(k).equals("*")) break;
      if (k > 0) prefix.append('.');
      prefix.append(parts.get(k));
      String m = Packages.MODULE_OF.get(prefix.toString());
      if (m != null) {
        pkg = prefix.toString();
        module = m;
        classAt = k + 1;
      }
    }
    if (module == null || COMPILED_AGAINST.contains(module)) return null;
    String name = pkg + "." + (classAt < parts.size() ? parts.get(classAt) : "*");
    return new Diagnostic(location.getLineNumber(), location.getColumnNumber(),
        name + " is not allowed in the sandbox (module " + module + " is not available here)");
  }

  private static boolean isIdentifier(Token token) {
    return token.type == TokenType.IDENTIFIER;
  }

}
