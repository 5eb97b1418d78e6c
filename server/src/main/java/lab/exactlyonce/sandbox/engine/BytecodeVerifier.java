package lab.exactlyonce.sandbox.engine;

import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.signature.SignatureReader;
import org.objectweb.asm.signature.SignatureVisitor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks every class the compiler produced against {@link ApiPolicy}: super types, field and method types,
 * generic signatures, annotations, and every class, method and field each instruction references (including class
 * constants), with the line of the reference. invokedynamic is admitted for the {@link Bootstraps} javac needs,
 * their method handles checked like calls; method handle constants, dynamic constants, native methods and
 * finalizers are refused outright. This is the gate: the compile-time class loader only makes errors readable.
 */
final class BytecodeVerifier {
  private static final int API = Opcodes.ASM9;
  private static final List<String> RESERVED_PACKAGES =
      List.of("java/", "javax/", "jdk/", "sun/", "com/sun/", "lab/exactlyonce/", "org/codehaus/", "org/objectweb/");

  /** A learner class as far as member resolution needs it. */
  private record Declared(String superName, String[] interfaces, Set<String> methods, Set<String> fields) {
  }

  private final Map<String, Declared> learner = new HashMap<>();
  private final Set<Violation> violations = new LinkedHashSet<>();
  private final String[] sourceLines;

  private record Violation(int line, String message) {
  }

  private BytecodeVerifier(String source) {
    this.sourceLines = source.split("\r\n|\r|\n", -1);
  }

  /** The violations as diagnostics ordered by line, empty when every class passes. */
  static List<Diagnostic> verify(Map<String, byte[]> classes, String source) {
    return verify(classes, Map.of(), source);
  }

  /**
   * The same, for learner code compiled against an exercise's {@code provided} classes: those may be named and
   * their members resolve like the learner's own, but they are trusted and not checked themselves.
   */
  static List<Diagnostic> verify(Map<String, byte[]> classes, Map<String, byte[]> provided, String source) {
    BytecodeVerifier verifier = new BytecodeVerifier(source);
    for (byte[] bytes : provided.values()) verifier.declare(new ClassReader(bytes));
    List<ClassReader> readers = new ArrayList<>();
    for (byte[] bytes : classes.values()) {
      ClassReader reader = new ClassReader(bytes);
      readers.add(reader);
      verifier.declare(reader);
    }
    for (ClassReader reader : readers) verifier.check(reader);
    List<Diagnostic> out = new ArrayList<>();
    for (Violation v : verifier.violations) out.add(new Diagnostic(v.line, 0, v.message));
    out.sort(Comparator.comparingInt(Diagnostic::line));
    return out;
  }

  private void declare(ClassReader reader) {
    Set<String> methods = new HashSet<>();
    Set<String> fields = new HashSet<>();
    reader.accept(new ClassVisitor(API) {
      @Override
      public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        fields.add(name);
        return null;
      }

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] ex) {
        methods.add(name + descriptor);
        return null;
      }
    }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    learner.put(reader.getClassName(), new Declared(reader.getSuperName(), reader.getInterfaces(), methods, fields));
  }

  private void check(ClassReader reader) {
    ClassCheck classCheck = new ClassCheck();
    reader.accept(classCheck, 0);
    for (Violation v : classCheck.classLevel) violations.add(new Violation(Math.max(v.line, classCheck.firstLine), v.message));
  }

  private static String notAllowed(String what) {
    return what + " is not allowed in the sandbox";
  }

  /** Null when the internal name or array descriptor names only allowed or learner classes, else the culprit. */
  private String deniedType(String internalNameOrArray) {
    Type type = internalNameOrArray.startsWith("[") ? Type.getType(internalNameOrArray) : Type.getObjectType(internalNameOrArray);
    return deniedType(type);
  }

  private String deniedType(Type type) {
    if (type.getSort() == Type.ARRAY) type = type.getElementType();
    if (type.getSort() != Type.OBJECT) return null;
    String name = type.getInternalName();
    if (learner.containsKey(name) || ApiPolicy.allowsClass(name)) return null;
    return ApiPolicy.dotted(name);
  }

  private String deniedInDescriptor(String descriptor) {
    if (descriptor.startsWith("(")) {
      Type method = Type.getMethodType(descriptor);
      for (Type arg : method.getArgumentTypes()) {
        String denied = deniedType(arg);
        if (denied != null) return denied;
      }
      return deniedType(method.getReturnType());
    }
    return deniedType(Type.getType(descriptor));
  }

  private String deniedInSignature(String signature) {
    if (signature == null) return null;
    String[] found = new String[1];
    new SignatureReader(signature).accept(new SignatureVisitor(API) {
      private String current;

      @Override
      public void visitClassType(String name) {
        current = name;
        note(name);
      }

      @Override
      public void visitInnerClassType(String name) {
        current = current + "$" + name;
        note(current);
      }

      private void note(String name) {
        if (found[0] == null) found[0] = deniedType(name);
      }
    });
    return found[0];
  }

  /** The forbidden API a member reference reaches, or null. Members of learner classes resolve up the hierarchy. */
  private String deniedMember(String owner, String name, String descriptor, boolean field) {
    String denied = deniedType(owner);
    if (denied != null) return denied;
    if (owner.startsWith("[")) {
      denied = name.equals("clone") ? null : ApiPolicy.deniedMember("java/lang/Object", name);
    } else {
      denied = deniedInherited(owner, name, descriptor, field, new HashSet<>());
    }
    return denied != null ? denied : deniedInDescriptor(descriptor);
  }

  private String deniedInherited(String owner, String name, String descriptor, boolean field, Set<String> seen) {
    if (owner == null || !seen.add(owner)) return null;
    Declared declared = learner.get(owner);
    if (declared == null) return ApiPolicy.allowsClass(owner) ? ApiPolicy.deniedMember(owner, name) : ApiPolicy.dotted(owner);
    if (field ? declared.fields.contains(name) : declared.methods.contains(name + descriptor)) return null;
    if (name.equals("<init>")) return null;
    String denied = deniedInherited(declared.superName, name, descriptor, field, seen);
    if (denied != null) return denied;
    for (String anInterface : declared.interfaces) {
      denied = deniedInherited(anInterface, name, descriptor, field, seen);
      if (denied != null) return denied;
    }
    return null;
  }

  private final class ClassCheck extends ClassVisitor {
    private final List<Violation> classLevel = new ArrayList<>();
    private int firstLine = Integer.MAX_VALUE;
    private String className;

    ClassCheck() {
      super(API);
    }

    private void classLevel(String culprit) {
      if (culprit != null) classLevel.add(new Violation(0, notAllowed(culprit)));
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
      className = name;
      for (String reserved : RESERVED_PACKAGES) {
        if (name.startsWith(reserved)) classLevel(reserved.replace('/', '.') + "* as a package of your own");
      }
      if (superName != null) classLevel(deniedType(superName));
      for (String anInterface : interfaces) classLevel(deniedType(anInterface));
      classLevel(deniedInSignature(signature));
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      classLevel(deniedInDescriptor(descriptor));
      return null;
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
      classLevel(deniedInDescriptor(descriptor));
      classLevel(deniedInSignature(signature));
      return null;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
      if ((access & Opcodes.ACC_NATIVE) != 0) {
        violations.add(new Violation(lineOf("native", name), notAllowed("the native method " + name + "()")));
      }
      if (name.equals("finalize") && descriptor.equals("()V")) {
        violations.add(new Violation(lineOf("finalize", "finalize"), notAllowed("finalize()")));
      }
      List<Violation> signatureViolations = new ArrayList<>();
      String denied = deniedInDescriptor(descriptor);
      if (denied == null) denied = deniedInSignature(signature);
      if (denied == null && exceptions != null) {
        for (String exception : exceptions) if (denied == null) denied = deniedType(exception);
      }
      if (denied != null) signatureViolations.add(new Violation(0, notAllowed(denied)));
      return new MethodCheck(signatureViolations);
    }

    private int lineOf(String word, String name) {
      for (int i = 0; i < sourceLines.length; i++) {
        if (sourceLines[i].contains(word) && sourceLines[i].contains(name)) return i + 1;
      }
      return 0;
    }

    private final class MethodCheck extends MethodVisitor {
      private final List<Violation> signatureViolations;
      private int line;
      private int methodFirstLine;

      MethodCheck(List<Violation> signatureViolations) {
        super(API);
        this.signatureViolations = signatureViolations;
      }

      private void deny(String culprit) {
        if (culprit != null) violations.add(new Violation(line, notAllowed(culprit)));
      }

      @Override
      public void visitLineNumber(int lineNumber, Label start) {
        line = lineNumber;
        if (methodFirstLine == 0) methodFirstLine = lineNumber;
        firstLine = Math.min(firstLine, lineNumber);
      }

      @Override
      public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
        deny(deniedInDescriptor(descriptor));
        return null;
      }

      @Override
      public void visitTypeInsn(int opcode, String type) {
        deny(deniedType(type));
      }

      @Override
      public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        deny(deniedMember(owner, name, descriptor, true));
      }

      @Override
      public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        deny(deniedMember(owner, name, descriptor, false));
      }

      @Override
      public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
        if (!Bootstraps.admitted(bootstrap)) {
          deny("invokedynamic with the bootstrap " + ApiPolicy.dotted(bootstrap.getOwner()) + "." + bootstrap.getName());
          return;
        }
        deny(deniedInDescriptor(descriptor));
        for (Object argument : arguments) {
          if (argument instanceof Handle) {
            deny(deniedHandle((Handle) argument, Bootstraps.recordMethods(bootstrap)));
          } else if (argument instanceof Type) {
            Type type = (Type) argument;
            deny(type.getSort() == Type.METHOD ? deniedInDescriptor(type.getDescriptor()) : deniedType(type));
          } else if (argument instanceof ConstantDynamic) {
            deny("a dynamic constant");
          }
        }
      }

      /**
       * What a lambda's or method reference's implementation reaches, checked like a call to it; a record's
       * {@code toString}, {@code equals} and {@code hashCode} may only read the record's own fields.
       */
      private String deniedHandle(Handle handle, boolean recordMethods) {
        if (recordMethods) {
          boolean ownField = handle.getTag() == Opcodes.H_GETFIELD && handle.getOwner().equals(className);
          return ownField ? deniedInDescriptor(handle.getDesc()) : "a record method handle to " + handle.getOwner();
        }
        if (handle.getTag() < Opcodes.H_INVOKEVIRTUAL) return "a method handle to the field " + handle.getName();
        String denied = deniedMember(handle.getOwner(), handle.getName(), handle.getDesc(), false);
        if (denied != null) return denied;
        if (Instrumenter.rewrites(handle.getOwner(), handle.getName(), handle.getDesc())) {
          return rewrittenReference(handle);
        }
        return null;
      }

      /** A reference to a call the instrumenter rewrites would run the original: the message says what to write. */
      private String rewrittenReference(Handle handle) {
        String owner = ApiPolicy.dotted(handle.getOwner());
        String simple = owner.substring(owner.lastIndexOf('.') + 1);
        if (handle.getTag() == Opcodes.H_NEWINVOKESPECIAL) {
          return "a constructor reference to " + owner + " (write a lambda instead, e.g. () -> new " + simple + "())";
        }
        if (handle.getTag() == Opcodes.H_INVOKESTATIC) {
          int arguments = Type.getArgumentTypes(handle.getDesc()).length;
          String lambda = arguments == 0 ? "() -> " + simple + "." + handle.getName() + "()"
              : "x -> " + simple + "." + handle.getName() + (arguments == 1 ? "(x)" : "(x, ...)");
          return "a method reference to " + owner + "." + handle.getName() + " (write a lambda instead, e.g. " + lambda
              + ")";
        }
        return "a method reference to " + owner + "." + handle.getName()
            + " (write a lambda that calls it instead, e.g. s -> s." + handle.getName() + "(...))";
      }

      @Override
      public void visitLdcInsn(Object value) {
        if (value instanceof Type) {
          Type type = (Type) value;
          deny(type.getSort() == Type.METHOD ? "a method type constant" : deniedType(type));
        } else if (value instanceof Handle) {
          deny("a method handle constant");
        } else if (value instanceof ConstantDynamic) {
          deny("a dynamic constant");
        }
      }

      @Override
      public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
        deny(deniedType(descriptor));
        if (numDimensions > 4) deny("an array creation with more than 4 dimensions");
      }

      @Override
      public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
        if (type != null) signatureViolations.add(new Violation(0, notAllowedOrNull(deniedType(type))));
      }

      @Override
      public void visitLocalVariable(String name, String descriptor, String signature, Label start, Label end, int index) {
        String denied = deniedInDescriptor(descriptor);
        if (denied == null) denied = deniedInSignature(signature);
        if (denied != null) signatureViolations.add(new Violation(0, notAllowed(denied)));
      }

      @Override
      public void visitEnd() {
        for (Violation v : signatureViolations) {
          if (v.message != null) violations.add(new Violation(methodFirstLine, v.message));
        }
      }
    }
  }

  private static String notAllowedOrNull(String culprit) {
    return culprit == null ? null : notAllowed(culprit);
  }
}
