package lab.exactlyonce.sandbox.engine;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites a snippet's stack map frames with ASM's own data-flow analysis. Janino 3.1.12 writes frames the JVM
 * refuses for some ordinary code (a variable declared without a value and assigned inside a {@code do} loop, or in
 * the right operand of {@code &&}); the instructions are right, only the frames are wrong, so recomputing them
 * makes the class verify. Used only for classes that failed verification.
 */
final class FrameRepair {
  private FrameRepair() {
  }

  /** The classes (binary name to class file) with recomputed frames. */
  static Map<String, byte[]> repair(Map<String, byte[]> classes) {
    Map<String, ClassReader> learner = new LinkedHashMap<>();
    for (Map.Entry<String, byte[]> e : classes.entrySet()) {
      ClassReader reader = new ClassReader(e.getValue());
      learner.put(reader.getClassName(), reader);
    }
    Map<String, byte[]> repaired = new LinkedHashMap<>();
    for (Map.Entry<String, byte[]> e : classes.entrySet()) {
      ClassReader reader = new ClassReader(e.getValue());
      ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
        @Override
        protected String getCommonSuperClass(String type1, String type2) {
          return commonSuperClass(type1, type2, learner);
        }
      };
      reader.accept(writer, ClassReader.SKIP_FRAMES);
      repaired.put(e.getKey(), writer.toByteArray());
    }
    return repaired;
  }

  private static String commonSuperClass(String type1, String type2, Map<String, ClassReader> learner) {
    if (isInterface(type1, learner) || isInterface(type2, learner)) return "java/lang/Object";
    Set<String> ancestors = new LinkedHashSet<>();
    for (String t = type1; t != null; t = superName(t, learner)) ancestors.add(t);
    for (String t = type2; t != null; t = superName(t, learner)) if (ancestors.contains(t)) return t;
    return "java/lang/Object";
  }

  private static boolean isInterface(String type, Map<String, ClassReader> learner) {
    ClassReader reader = learner.get(type);
    if (reader != null) return (reader.getAccess() & Opcodes.ACC_INTERFACE) != 0;
    Class<?> jdk = jdkClass(type);
    return jdk != null && jdk.isInterface();
  }

  private static String superName(String type, Map<String, ClassReader> learner) {
    ClassReader reader = learner.get(type);
    if (reader != null) return reader.getSuperName();
    Class<?> jdk = jdkClass(type);
    return jdk == null || jdk.getSuperclass() == null ? null : jdk.getSuperclass().getName().replace('.', '/');
  }

  /** A JDK class, loaded without being initialised; null for a name that does not resolve. */
  private static Class<?> jdkClass(String internalName) {
    try {
      return Class.forName(internalName.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }
}
