package lab.exactlyonce;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import lab.exactlyonce.learner.LearnerData;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.sandbox.confinement.SelfConfinement;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package boundaries, as rules over the compiled main classes: a class added to a feature (a new package, a new
 * store) is held to them without a change here. Each failure names the class and the dependency that broke a rule.
 */
class ArchitectureTest {
  private static final String BASE = "lab.exactlyonce";
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages(BASE);

  /** One slice per top-level package under {@value #BASE} (sub-packages belong to theirs), and the root package. */
  private static final SliceAssignment FEATURES = new SliceAssignment() {
    @Override
    public SliceIdentifier getIdentifierOf(JavaClass c) {
      String pkg = c.getPackageName();
      if (pkg.equals(BASE)) return SliceIdentifier.of("the root package");
      if (!pkg.startsWith(BASE + ".")) return SliceIdentifier.ignore();
      return SliceIdentifier.of(pkg.substring(BASE.length() + 1).split("\\.")[0]);
    }

    @Override
    public String getDescription() {
      return "the packages of " + BASE + " (each with its sub-packages) and its root package";
    }
  };

  /**
   * Who may use JDBC: the {@code store} package, and a feature's own SQL: a class named {@code *Store} or
   * {@code *Log}, an implementation of {@link LearnerData} (whose methods take the caller's connection), and
   * {@link Learners}, which owns the {@code learners} table. Nested and anonymous classes count as their outermost.
   */
  private static final DescribedPredicate<JavaClass> OWNS_SQL =
      new DescribedPredicate<>("are in store, or are a *Store, a *Log, a LearnerData or Learners") {
        @Override
        public boolean test(JavaClass c) {
          JavaClass outer = c;
          while (outer.getEnclosingClass().isPresent()) outer = outer.getEnclosingClass().get();
          String name = outer.getSimpleName();
          return outer.getPackageName().startsWith(BASE + ".store") || name.endsWith("Store") || name.endsWith("Log")
              || outer.isAssignableTo(LearnerData.class) || outer.isEquivalentTo(Learners.class);
        }
      };

  @Test
  void no_package_depends_on_itself_through_others() {
    slices().assignedFrom(FEATURES).should().beFreeOfCycles()
        .check(MAIN);
  }

  @Test
  void the_sandbox_engine_depends_on_nothing_of_ours_but_the_confinement_it_puts_itself_under() {
    // It runs inside every worker JVM, on a class path that has nothing else of the app but the sandbox's classes;
    // its first call confines the worker (SelfConfinement), before anything of a learner's runs.
    noClasses().that().resideInAPackage(BASE + ".sandbox.engine..")
        .should().dependOnClassesThat(resideInAPackage(BASE + "..").and(not(resideInAPackage(BASE + ".sandbox.engine..")))
            .and(not(type(SelfConfinement.class))))
        .check(MAIN);
  }

  @Test
  void only_the_store_and_a_features_own_sql_classes_use_jdbc() {
    noClasses().that(not(OWNS_SQL))
        .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..")
        .check(MAIN);
  }

  @Test
  void the_engine_the_confinement_and_the_store_know_nothing_of_http() {
    noClasses().that().resideInAnyPackage(BASE + ".sandbox.engine..", BASE + ".sandbox.confinement..", BASE + ".store..")
        .should().dependOnClassesThat().resideInAPackage("io.javalin..")
        .check(MAIN);
  }

  @Test
  void the_benchmarks_are_used_by_no_app_code() {
    noClasses().that().resideOutsideOfPackage(BASE + ".bench..")
        .should().dependOnClassesThat().resideInAPackage(BASE + ".bench..")
        .check(MAIN);
  }
}
