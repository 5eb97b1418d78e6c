package lab.exactlyonce.sandbox.engine;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * An exercise checker's one handle on a check: it makes instances of the learner's classes, seen only through the
 * interface the exercise provides, and reports each scenario's verdicts. The engine hands a fresh one to the
 * checker's {@code public static void check(Check check)}; learner code can neither name this class (the bytecode
 * check refuses it) nor reach the instance (the checker keeps it, and the learner's classes cannot see the
 * checker's). Verdicts reach the server in {@link RunResult#check()} over the worker protocol.
 *
 * <p>Each scenario starts the learner's code in a new process, and so does each {@link #crash()}: the learner's
 * classes are loaded afresh for it, so nothing of the learner's code outlives a crash but what the checker hands back.
 *
 * <p>Used on the run's thread only; the engine reads it after that thread ended.
 */
public final class Check {
  static final int MAX_SCENARIOS = 200;
  static final int MAX_VERDICTS = 20;
  static final int MAX_TEXT = 300;
  private static final int MAX_FIELDS_NAMED = 3;

  /** The learner's classes in the current lifetime of its process. */
  private SnippetLoader learner;
  private final List<ScenarioVerdict> scenarios = new ArrayList<>();
  private String problem;
  private boolean crashedInScenario;
  private List<String> staticFields;

  Check(SnippetLoader learner) {
    this.learner = learner;
  }

  /**
   * A new instance of the learner's class {@code className}, which must implement {@code type}, made with its
   * constructor that takes {@code args}. The constructor runs the learner's code: whatever it throws is thrown
   * here. A class that is missing, does not implement {@code type} or has no such constructor is the learner's
   * mistake, named once in the check's answer.
   *
   * @throws ExerciseShapeError when the learner's code does not have the shape the exercise asks for
   */
  public Object create(String className, Class<?> type, Object[] args) {
    Class<?> found = learner.ownClass(className);
    String wanted = "class " + className + " implements " + type.getSimpleName();
    if (found == null) throw shape("your code must declare " + wanted + ", as the starter does");
    if (!type.isAssignableFrom(found)) {
      throw shape("class " + className + " must implement " + type.getSimpleName() + ", as the starter does: write "
          + "'" + wanted + "'");
    }
    if (Modifier.isAbstract(found.getModifiers())) throw shape("class " + className + " must not be abstract");
    Constructor<?> constructor = constructorFor(found, args);
    if (constructor == null) throw shape("class " + className + " needs the constructor " + signature(className, args)
        + ", as the starter has");
    constructor.setAccessible(true);
    // A method handle, not Constructor.newInstance: after a few calls reflection spins an accessor class inside the
    // learner's class loader, which (rightly) cannot resolve the JDK's internal accessor types.
    MethodHandle create;
    try {
      create = MethodHandles.lookup().unreflectConstructor(constructor);
    } catch (IllegalAccessException e) {
      throw shape("class " + className + " cannot be created: " + e.getMessage());
    }
    try {
      return create.invokeWithArguments(args);
    } catch (Throwable thrown) {
      throw Check.<RuntimeException>rethrow(thrown);
    }
  }

  /**
   * The learner's process crashes, as a real job's would: the next {@link #create} loads the learner's classes
   * afresh, so their static fields start over, whatever objects they reach included. What survives is what the
   * checker hands the new objects: the provided environment (a table, a gateway) and the state restored from the
   * last checkpoint, which the checker copies into JDK values first. Objects made before belong to the crashed
   * process: the checker drops them.
   */
  public void crash() {
    learner = learner.afresh();
    crashedInScenario = true;
  }

  /**
   * Records one scenario; it passed when {@code verdicts} is empty. Texts are cut, and so are very long lists. When
   * the scenario failed after a crash and the learner's classes have static fields that can hold state, a last
   * verdict says that a crash took what those held. The next scenario starts a new process.
   */
  public void scenario(String name, List<?> verdicts) {
    boolean crashed = crashedInScenario;
    learner = learner.afresh();
    crashedInScenario = false;
    if (scenarios.size() == MAX_SCENARIOS) return;
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < verdicts.size() && i < MAX_VERDICTS; i++) texts.add(cut(String.valueOf(verdicts.get(i))));
    if (verdicts.size() > MAX_VERDICTS) texts.add("and " + (verdicts.size() - MAX_VERDICTS) + " more problems");
    if (!texts.isEmpty() && crashed && !staticFields().isEmpty()) texts.add(cut(staticsLost(staticFields())));
    scenarios.add(new ScenarioVerdict(cut(String.valueOf(name)), texts.isEmpty(), texts));
  }

  /**
   * How a checker names what the learner's code threw: its class and message. The message is the learner's own
   * code ({@code getMessage} may be overridden) and may fail; then the class alone.
   */
  public String describe(Throwable thrown) {
    String message;
    try {
      message = thrown.getMessage();
    } catch (Throwable failed) {
      message = null;
    }
    return thrown.getClass().getName() + (message == null ? "" : ": " + message);
  }

  CheckReport report() {
    return new CheckReport(scenarios);
  }

  /** Why the learner's code does not fit the exercise, or null. */
  String problem() {
    return problem;
  }

  private List<String> staticFields() {
    if (staticFields == null) staticFields = StaticFields.holdingState(learner.classFiles());
    return staticFields;
  }

  /** Why state kept in static fields is gone after a crash, naming the first few of them. */
  static String staticsLost(List<String> fields) {
    String named = String.join(", ", fields.subList(0, Math.min(fields.size(), MAX_FIELDS_NAMED)));
    if (fields.size() > MAX_FIELDS_NAMED) named += " and " + (fields.size() - MAX_FIELDS_NAMED) + " more";
    return "a crash ends the process: your classes were loaded afresh after it, so their static fields (" + named
        + ") started over. A crash keeps only what lives outside your objects and what the job restores from its"
        + " checkpoint";
  }

  private ExerciseShapeError shape(String message) {
    if (problem == null) problem = message;
    return new ExerciseShapeError(message);
  }

  private static Constructor<?> constructorFor(Class<?> type, Object[] args) {
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      Class<?>[] params = c.getParameterTypes();
      if (params.length != args.length) continue;
      boolean fits = true;
      for (int i = 0; i < params.length && fits; i++) {
        fits = args[i] == null ? !params[i].isPrimitive() : params[i].isInstance(args[i]);
      }
      if (fits) return c;
    }
    return null;
  }

  private static String signature(String className, Object[] args) {
    List<String> types = new ArrayList<>();
    for (Object arg : args) types.add(arg == null ? "Object" : arg.getClass().getSimpleName());
    return className + "(" + String.join(", ", types) + ")";
  }

  private static String cut(String text) {
    String flat = text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    return flat.length() <= MAX_TEXT ? flat : flat.substring(0, MAX_TEXT) + "...";
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T rethrow(Throwable t) throws T {
    throw (T) t;
  }

  /** The learner's code lacks a class, an interface or a constructor the exercise asks for. */
  public static final class ExerciseShapeError extends RuntimeException {
    ExerciseShapeError(String message) {
      super(message, null, false, false);
    }
  }
}
