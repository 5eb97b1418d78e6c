package lab.exactlyonce.sandbox.engine;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;

import java.util.Map;
import java.util.Set;

/**
 * The invokedynamic bootstraps javac's Java 17 output needs, and nothing else: lambdas and method references
 * ({@code LambdaMetafactory}), string concatenation ({@code StringConcatFactory}) and the {@code toString},
 * {@code equals} and {@code hashCode} of records ({@code ObjectMethods}). Switches on strings and enums compile to
 * plain instructions in Java 17 (pattern switches, which use {@code SwitchBootstraps}, are a preview there), so
 * that bootstrap is refused with every other. The method handles and types among a bootstrap's arguments are what
 * the call reaches; the caller checks them against the allowlist as if they were written as calls.
 */
final class Bootstraps {
  private static final Map<String, String> ADMITTED = Map.of(
      "java/lang/invoke/LambdaMetafactory.metafactory",
      "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
          + "Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;Ljava/lang/invoke/MethodType;)"
          + "Ljava/lang/invoke/CallSite;",
      "java/lang/invoke/LambdaMetafactory.altMetafactory",
      "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;[Ljava/lang/Object;)"
          + "Ljava/lang/invoke/CallSite;",
      "java/lang/invoke/StringConcatFactory.makeConcatWithConstants",
      "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;"
          + "[Ljava/lang/Object;)Ljava/lang/invoke/CallSite;",
      "java/lang/runtime/ObjectMethods.bootstrap",
      "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/TypeDescriptor;Ljava/lang/Class;"
          + "Ljava/lang/String;[Ljava/lang/invoke/MethodHandle;)Ljava/lang/Object;");

  /**
   * What the JVM resolves through the learner's class loader to link an admitted bootstrap: its class and the types
   * of its parameters. Learner code cannot name them itself: the bytecode check refuses {@code java.lang.invoke}.
   */
  private static final Set<String> LINKED = Set.of("java.lang.invoke.LambdaMetafactory",
      "java.lang.invoke.StringConcatFactory", "java.lang.runtime.ObjectMethods", "java.lang.invoke.MethodHandles$Lookup",
      "java.lang.invoke.MethodType", "java.lang.invoke.MethodHandle", "java.lang.invoke.CallSite",
      "java.lang.invoke.TypeDescriptor");

  private Bootstraps() {
  }

  /** Whether the run's class loader resolves this class (binary name) for linking a bootstrap. */
  static boolean linked(String binaryName) {
    return LINKED.contains(binaryName);
  }

  /** Whether {@code bootstrap} is one of the admitted ones, exactly (a static method, the JDK's descriptor). */
  static boolean admitted(Handle bootstrap) {
    return bootstrap.getTag() == Opcodes.H_INVOKESTATIC
        && bootstrap.getDesc().equals(ADMITTED.get(bootstrap.getOwner() + "." + bootstrap.getName()));
  }

  /** Whether the bootstrap is ObjectMethods', whose handles may only read the record's own fields. */
  static boolean recordMethods(Handle bootstrap) {
    return bootstrap.getOwner().equals("java/lang/runtime/ObjectMethods");
  }
}
