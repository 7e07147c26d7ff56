package io.ds2.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The model is pure: it may use the JDK (minus I/O and networking) and commons-math3 only. */
class ModelPurityTest {
  @Test
  void modelDependsOnTheJdkAndCommonsMathOnly() {
    classes()
        .that()
        .resideInAPackage("io.ds2.core..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "io.ds2.core..",
            "java.lang..",
            "java.util..",
            "java.time..",
            "java.math..",
            "org.apache.commons.math3..")
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.ds2.core"));
  }
}
