package io.ds2.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One module per role, arrows one way: core (pure) ← flink-rest (the REST adapter) ← loop ←
 * recording ← whatif; command-line ← operator ← cli ← demo ← experiments; workloads (Flink jobs)
 * beside them, for the demo, the benchmarks and tests only. Each module's classes live in its own
 * packages, so a package arrow is a module arrow. The operator image is the operator module's jar
 * and runtime classpath: checked here as built, beside its Maven enforcer rule.
 */
class ModuleLayeringTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          // Test harnesses published as test-jars (the operator's, the recording's) are test code.
          .withImportOption(location -> !location.contains("-tests.jar"))
          .importPackages("io.ds2");

  private static final Path OPERATOR_TARGET = Path.of("..", "operator", "target");

  @Test
  void moduleArrowsPointOneWay() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("core")
        .definedBy("io.ds2.core..")
        .layer("flink-rest")
        .definedBy("io.ds2.flink..")
        .layer("loop")
        .definedBy("io.ds2.loop..", "io.ds2.render..")
        .layer("recording")
        .definedBy("io.ds2.recording..")
        .layer("whatif")
        .definedBy("io.ds2.whatif..")
        .layer("command-line")
        .definedBy("io.ds2.commandline..")
        .layer("operator")
        .definedBy("io.ds2.operator..")
        .layer("cli")
        .definedBy("io.ds2.cli..")
        .layer("demo")
        .definedBy("io.ds2.demo..")
        .layer("workloads")
        .definedBy("io.ds2.workloads..")
        .layer("testkit")
        .definedBy("io.ds2.testkit..")
        .layer("experiments")
        .definedBy("io.ds2.experiments..")
        .whereLayer("experiments")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("demo")
        .mayOnlyBeAccessedByLayers("experiments")
        .whereLayer("cli")
        .mayOnlyBeAccessedByLayers("demo", "experiments")
        .whereLayer("operator")
        .mayOnlyBeAccessedByLayers("cli", "demo", "experiments")
        .whereLayer("command-line")
        .mayOnlyBeAccessedByLayers("operator", "cli", "demo", "experiments")
        .whereLayer("whatif")
        .mayOnlyBeAccessedByLayers("cli", "demo", "experiments")
        .whereLayer("recording")
        .mayOnlyBeAccessedByLayers("whatif", "operator", "cli", "demo", "experiments")
        .whereLayer("loop")
        .mayOnlyBeAccessedByLayers("recording", "whatif", "operator", "cli", "demo", "experiments")
        .whereLayer("flink-rest")
        .mayOnlyBeAccessedByLayers(
            "loop", "recording", "whatif", "operator", "cli", "demo", "experiments")
        .whereLayer("workloads")
        .mayOnlyBeAccessedByLayers("demo", "experiments")
        .whereLayer("testkit")
        .mayOnlyBeAccessedByLayers("experiments")
        .check(MAIN);
  }

  @Test
  void nothingTheOperatorRunsUsesFlinkTypes() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.ds2.core..",
            "io.ds2.flink..",
            "io.ds2.loop..",
            "io.ds2.render..",
            "io.ds2.recording..",
            "io.ds2.commandline..",
            "io.ds2.operator..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.apache.flink..")
        .check(MAIN);
  }

  /**
   * No package depends on itself through others (it was loop -> render -> recording -> loop, with
   * what-if spread over render and recording, in one module).
   */
  @Test
  void noPackageCycles() {
    slices().matching("io.ds2.(**)").should().beFreeOfCycles().check(MAIN);
  }

  /**
   * What deploy/Dockerfile copies — the operator's jar and its runtime classpath — holds no CLI,
   * what-if, report (uPlot) or DS2-import class and no Flink artifact; and the jar's Class-Path
   * names only jars that are there.
   */
  @Test
  void theOperatorImageHoldsNoWhatIfReportCliOrFlink() throws IOException {
    Path jar = OPERATOR_TARGET.resolve("ds2-operator.jar");
    Path lib = OPERATOR_TARGET.resolve("lib");
    assertTrue(
        Files.isRegularFile(jar) && Files.isDirectory(lib),
        "build the operator module first (mvn package): no " + jar + " or " + lib);
    List<Path> jars = new ArrayList<>(List.of(jar));
    try (Stream<Path> files = Files.list(lib)) {
      files.filter(p -> p.toString().endsWith(".jar")).forEach(jars::add);
    }
    List<String> found = new ArrayList<>();
    for (Path j : jars) {
      String name = j.getFileName().toString();
      if (name.startsWith("flink-")
          || name.startsWith("ds2-whatif")
          || name.startsWith("ds2-cli")
          || name.startsWith("ds2-demo")
          || name.startsWith("ds2-workloads")
          || name.startsWith("uplot")) {
        found.add(name);
      }
      try (JarFile f = new JarFile(j.toFile())) {
        f.stream()
            .map(e -> e.getName())
            .filter(
                e ->
                    e.startsWith("io/ds2/whatif/")
                        || e.startsWith("io/ds2/cli/")
                        || e.startsWith("io/ds2/demo/")
                        || e.startsWith("org/apache/flink/")
                        || e.contains("uplot"))
            .findFirst()
            .ifPresent(e -> found.add(name + "!" + e));
      }
    }
    assertEquals(List.of(), found, "the operator image must not hold these");
    try (JarFile f = new JarFile(jar.toFile())) {
      String classPath = f.getManifest().getMainAttributes().getValue("Class-Path");
      for (String entry : classPath.trim().split("\\s+")) {
        assertTrue(
            Files.isRegularFile(OPERATOR_TARGET.resolve(entry)), "Class-Path names " + entry);
      }
      assertEquals(
          "io.ds2.operator.OperatorMain",
          f.getManifest().getMainAttributes().getValue("Main-Class"));
    }
  }
}
