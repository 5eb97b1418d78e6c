package lab.exactlyonce.sandbox.engine;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The static fields of the learner's classes that can hold state: what a simulated crash takes from the learner, so
 * that a check can say so where a crash cost a scenario. Constants, the compiler's own fields and final fields of an
 * immutable type (a {@code static final Long}) hold nothing that a crash could take away; enum constants hold state
 * only when their enum has fields that can change.
 */
final class StaticFields {
  private static final Set<String> IMMUTABLE = Set.of("Z", "B", "C", "S", "I", "J", "F", "D", "Ljava/lang/String;",
      "Ljava/lang/Boolean;", "Ljava/lang/Byte;", "Ljava/lang/Character;", "Ljava/lang/Short;", "Ljava/lang/Integer;",
      "Ljava/lang/Long;", "Ljava/lang/Float;", "Ljava/lang/Double;");

  private StaticFields() {
  }

  /** As the learner would write them, "AppendSink.appended", sorted: the class files come in no fixed order. */
  static List<String> holdingState(Map<String, byte[]> classFiles) {
    List<String> found = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : classFiles.entrySet()) {
      String owner = e.getKey().replace('$', '.');
      List<String> enumConstants = new ArrayList<>();
      boolean[] mutableInstances = new boolean[1];
      new ClassReader(e.getValue()).accept(new ClassVisitor(Opcodes.ASM9) {
        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
          if ((access & Opcodes.ACC_SYNTHETIC) != 0 || name.indexOf('$') >= 0) return null;
          boolean changes = (access & Opcodes.ACC_FINAL) == 0 || !IMMUTABLE.contains(descriptor);
          if ((access & Opcodes.ACC_STATIC) == 0) {
            mutableInstances[0] |= changes;
          } else if ((access & Opcodes.ACC_ENUM) != 0) {
            enumConstants.add(owner + "." + name);
          } else if (value == null && changes) {
            found.add(owner + "." + name);
          }
          return null;
        }
      }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      if (mutableInstances[0]) found.addAll(enumConstants);
    }
    found.sort(null);
    return found;
  }
}
