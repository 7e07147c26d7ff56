package io.ds2.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Module arrows point one way: experiments -> demo -> controller -> flink-metrics-client -> model,
 * with workloads (Flink jobs) beside them, used by the demo, the benchmarks and tests only. The
 * scaler core (model) is pure; the controller (the operator image) holds no Flink type: its Maven
 * build also bans Flink artifacts from its runtime classpath (maven-enforcer-plugin).
 */
class ModuleLayeringTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          // The controller's test harness, a test-jar the operator soak uses, is test code too.
          .withImportOption(location -> !location.contains("-tests.jar"))
          .importPackages("io.ds2");

  @Test
  void modelDependsOnNoOtherModule() {
    noClasses()
        .that()
        .resideInAPackage("io.ds2.model..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.ds2.flink..", "io.ds2.controller..", "io.ds2.workloads..", "io.ds2.experiments..")
        .check(MAIN);
  }

  @Test
  void restClientDependsOnTheModelOnly() {
    noClasses()
        .that()
        .resideInAPackage("io.ds2.flink..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.ds2.controller..", "io.ds2.workloads..", "io.ds2.experiments..")
        .check(MAIN);
  }

  @Test
  void restClientUsesNoFlinkTypes() {
    noClasses()
        .that()
        .resideInAPackage("io.ds2.flink..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.apache.flink..")
        .check(MAIN);
  }

  @Test
  void workloadsDependOnNoOtherModule() {
    noClasses()
        .that()
        .resideInAPackage("io.ds2.workloads..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.ds2.model..", "io.ds2.flink..", "io.ds2.controller..", "io.ds2.experiments..")
        .check(MAIN);
  }

  @Test
  void theOperatorCarriesNoFlink() {
    noClasses()
        .that()
        .resideInAPackage("io.ds2.controller..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.apache.flink..", "io.ds2.workloads..", "io.ds2.demo..")
        .check(MAIN);
  }

  @Test
  void theDemoDependsOnNoBenchmark() {
    noClasses()
        .that()
        .resideInAnyPackage("io.ds2.demo..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.ds2.experiments..")
        .check(MAIN);
  }

  /**
   * No package depends on itself through others (it was loop -> render -> recording -> loop, with
   * what-if spread over render and recording; it has a package of its own now).
   */
  @Test
  void noPackageCycles() {
    slices().matching("io.ds2.(**)").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void controllerDoesNotReachIntoExperiments() {
    noClasses()
        .that()
        .resideInAPackage("io.ds2.controller..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.ds2.experiments..")
        .check(MAIN);
  }
}
