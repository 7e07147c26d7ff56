package io.ds2.experiments;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Module arrows point one way: experiments -> controller -> flink-metrics-client -> model, with
 * workloads (Flink jobs) beside them, used by the controller's demo and by tests only.
 */
class ModuleLayeringTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
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
