package lab.exactlyonce.sandbox.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What learner code may name: an allowlist of JDK classes (internal names), each with the members it may use, and
 * a denylist of members that no class may offer (waiting on monitors, parallel execution on other threads,
 * finalizers, changing JVM-wide defaults). Everything else, including all of reflection, class loading,
 * {@code java.lang.invoke}, threads, processes, files, network, {@code sun.*} and {@code jdk.internal.*}, is
 * refused because it is not listed.
 */
final class ApiPolicy {
  /** Which members of an allowed class may be used. */
  private record Rule(boolean all, Set<String> names) {
    static final Rule ALL = new Rule(true, Set.of());

    static Rule only(String... names) {
      return new Rule(false, Set.of(names));
    }

    static Rule except(String... names) {
      return new Rule(true, Set.of(names));
    }

    boolean allows(String member) {
      return all != names.contains(member);
    }
  }

  /** Members refused on every JDK class, with the class that really declares them (for the message). */
  private static final Map<String, String> DENIED_EVERYWHERE = Map.ofEntries(
      Map.entry("wait", "java/lang/Object"), Map.entry("notify", "java/lang/Object"),
      Map.entry("notifyAll", "java/lang/Object"), Map.entry("finalize", "java/lang/Object"),
      Map.entry("parallel", "java/util/stream/BaseStream"), Map.entry("parallelStream", "java/util/Collection"),
      Map.entry("parallelSort", "java/util/Arrays"), Map.entry("parallelSetAll", "java/util/Arrays"),
      Map.entry("parallelPrefix", "java/util/Arrays"));

  /** Packages whose every class is allowed. */
  private static final List<String> PACKAGES = List.of("java/util/function/");

  private static final Map<String, Rule> CLASSES = new HashMap<>();

  static {
    // String.intern() reads and fills the JVM-wide string table: whether intern() returns its receiver would tell
    // one run which strings earlier runs of anyone in this worker interned.
    CLASSES.put("java/lang/String", Rule.except("intern"));
    all("java/lang/", "Object", "StringBuilder", "StringBuffer", "CharSequence", "Comparable", "Iterable",
        "Math", "StrictMath", "Number", "Short", "Byte", "Double", "Float", "Character",
        "Enum", "Cloneable", "Runnable", "AutoCloseable", "Appendable", "StackTraceElement",
        "Override", "Deprecated", "SuppressWarnings", "FunctionalInterface", "SafeVarargs",
        "Throwable", "Exception", "RuntimeException", "Error", "ArithmeticException",
        "ArrayIndexOutOfBoundsException", "ArrayStoreException", "ClassCastException", "CloneNotSupportedException",
        "IllegalArgumentException", "IllegalStateException", "IndexOutOfBoundsException",
        "NegativeArraySizeException", "NullPointerException", "NumberFormatException",
        "StringIndexOutOfBoundsException", "UnsupportedOperationException", "AssertionError", "StackOverflowError",
        "OutOfMemoryError", "VirtualMachineError", "ExceptionInInitializerError", "InterruptedException",
        // What javac's output names: the super class of records, and what a switch on an enum catches or throws.
        "Record", "NoSuchFieldError", "IncompatibleClassChangeError");
    // These three read system properties: Integer.getInteger("java.version") and friends.
    CLASSES.put("java/lang/Integer", Rule.except("getInteger"));
    CLASSES.put("java/lang/Long", Rule.except("getLong"));
    CLASSES.put("java/lang/Boolean", Rule.except("getBoolean"));
    CLASSES.put("java/lang/Class", Rule.only("getName", "getSimpleName", "getTypeName", "toString", "hashCode",
        "equals", "isInstance", "desiredAssertionStatus"));
    CLASSES.put("java/lang/System", Rule.only("out", "err", "currentTimeMillis", "nanoTime", "arraycopy",
        "lineSeparator", "identityHashCode"));
    all("java/lang/annotation/", "Annotation", "Retention", "RetentionPolicy", "Target", "ElementType", "Documented",
        "Inherited");
    CLASSES.put("java/io/PrintStream", Rule.only("print", "println", "printf", "format", "append", "flush",
        "checkError", "write"));
    all("java/io/", "Serializable", "Closeable", "IOException", "UncheckedIOException");
    all("java/util/", "AbstractCollection", "AbstractList", "AbstractMap", "AbstractMap$SimpleEntry",
        "AbstractMap$SimpleImmutableEntry", "AbstractQueue", "AbstractSequentialList", "AbstractSet", "ArrayDeque",
        "ArrayList", "Arrays", "BitSet", "Collection", "Collections", "Comparator", "ConcurrentModificationException",
        "Deque", "EmptyStackException", "EnumMap", "EnumSet", "HashMap", "HashSet", "Hashtable", "IdentityHashMap",
        "IllegalFormatException", "IllegalFormatConversionException", "InputMismatchException", "Iterator",
        "LinkedHashMap", "LinkedHashSet", "LinkedList", "List", "ListIterator", "Map", "Map$Entry",
        "MissingFormatArgumentException", "NavigableMap", "NavigableSet", "NoSuchElementException", "Objects",
        "Optional", "OptionalDouble", "OptionalInt", "OptionalLong", "PrimitiveIterator", "PrimitiveIterator$OfInt",
        "PrimitiveIterator$OfLong", "PrimitiveIterator$OfDouble", "PriorityQueue", "Queue", "Random", "RandomAccess",
        "Scanner", "Set", "SortedMap", "SortedSet", "Stack", "StringJoiner", "StringTokenizer", "TreeMap", "TreeSet",
        "UnknownFormatConversionException", "Vector");
    CLASSES.put("java/util/Locale", Rule.except("setDefault"));
    // Randomness: every JVM-wide generator behind these is replaced by the run's own (see Instrumenter), and
    // UUID.randomUUID() draws from a SecureRandom, whose outputs say nothing about later ones.
    CLASSES.put("java/util/concurrent/ThreadLocalRandom", Rule.only("current", "nextInt", "nextLong", "nextDouble",
        "nextBoolean", "nextFloat", "nextGaussian", "ints", "longs", "doubles"));
    CLASSES.put("java/util/UUID", Rule.ALL);
    all("java/util/stream/", "BaseStream", "Stream", "Stream$Builder", "IntStream", "LongStream", "DoubleStream",
        "Collectors", "Collector");
    all("java/util/regex/", "Pattern", "Matcher", "MatchResult", "PatternSyntaxException");
    all("java/math/", "BigInteger", "BigDecimal", "MathContext", "RoundingMode");
    all("java/time/", "Duration", "Instant", "LocalDate", "LocalTime", "LocalDateTime", "DayOfWeek", "Month",
        "DateTimeException");
    // java.text's formatting classes, admitted after a review (JDK 17 sources):
    // - Nothing in them reads a file the learner names, opens a socket or reflects on the learner's classes: the
    //   number and date patterns and symbols come from the JDK's own locale data, found by locale name inside the
    //   module image through the same providers String.format(Locale, ...) already uses. With SPI absent from
    //   java.locale.providers (the default) no ServiceLoader looks at a class path.
    // - Their only public static fields are final ints (the FIELD and style constants); every static factory
    //   (NumberFormat.getInstance, DecimalFormatSymbols.getInstance, DateFormat.getDateInstance, ...) returns a new
    //   object, and the shared symbols or number format a SimpleDateFormat starts from are cloned before use, so
    //   one run cannot change what the next one formats with.
    // - What would reach shared or host state takes a type that is not allowed, and the bytecode check refuses a
    //   member whose descriptor names one: time zones and calendars (DateFormat.setTimeZone, getCalendar), currencies
    //   (setCurrency), DateFormatSymbols, attributed iterators.
    // - Defaults come from the worker's JVM: it starts with user.language=en, user.country=US, user.timezone=UTC,
    //   so new DecimalFormat("#,##0.00"), NumberFormat.getInstance() and new SimpleDateFormat(...) format as
    //   java does with those settings. The workers have only java.base's locale data (English), so another
    //   locale's symbols (Locale.GERMANY) fall back to it, as String.format(Locale, ...) already does.
    // - Like String.format with a locale, a locale of the learner's making adds an entry to JDK caches keyed by
    //   locale for the life of the worker; formatting a huge BigDecimal is a long library call, which the run's
    //   CPU limit ends as it ends BigInteger.toString.
    all("java/text/", "Format", "NumberFormat", "DecimalFormat", "DecimalFormatSymbols", "DateFormat",
        "SimpleDateFormat", "MessageFormat", "ChoiceFormat", "FieldPosition", "ParsePosition", "ParseException");
    // What SimpleDateFormat formats and parses; its default time zone is the worker's (UTC).
    all("java/util/", "Date");
    // Ours: the trace API for the replay timeline (its static methods only; see Trace).
    CLASSES.put("lab/exactlyonce/sandbox/engine/Trace", Rule.only("sink", "read", "write", "barrier", "preCommit",
        "checkpointComplete", "commit", "abort", "crash", "replay", "consume"));
    all("java/time/temporal/", "ChronoUnit", "Temporal", "TemporalUnit", "TemporalAmount", "TemporalAccessor",
        "TemporalAdjuster");
  }

  private static void all(String pkg, String... simpleNames) {
    for (String name : simpleNames) CLASSES.put(pkg + name, Rule.ALL);
  }

  private ApiPolicy() {
  }

  /** Whether a JDK class (internal name, not an array) may be named at all. */
  static boolean allowsClass(String internalName) {
    if (CLASSES.containsKey(internalName)) return true;
    for (String pkg : PACKAGES) {
      if (internalName.startsWith(pkg) && internalName.indexOf('/', pkg.length()) < 0) return true;
    }
    return false;
  }

  /**
   * The member of an allowed JDK class that may not be used, as "java.lang.System.exit", or null when allowed.
   * The caller has checked the class itself and the types in the descriptor.
   */
  static String deniedMember(String owner, String name) {
    String declaredBy = DENIED_EVERYWHERE.get(name);
    if (declaredBy != null) return dotted(declaredBy) + "." + name;
    Rule rule = CLASSES.get(owner);
    if (rule == null) return null; // a class of an allowed package
    boolean allowed = name.equals("<init>") ? rule.all() : rule.allows(name);
    return allowed ? null : dotted(owner) + "." + name;
  }

  /**
   * The allowlisted JDK classes as binary names ("java.util.Scanner", "java.util.Map$Entry"), for the worker to
   * initialise before it takes runs (the classes of allowed packages are interfaces with nothing to initialise).
   */
  static List<String> jdkClassNames() {
    return CLASSES.keySet().stream().filter(name -> !name.startsWith("lab/")).sorted().map(ApiPolicy::dotted).toList();
  }

  static String dotted(String internalName) {
    return internalName.replace('/', '.');
  }
}
