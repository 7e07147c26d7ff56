package io.ds2.experiments.bench.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.options.Ds2Options;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ControllersTest {
  @Test
  void anyControllerRunsAtAnotherTargetNamedBySuffix() {
    for (String base : List.of("ds2", "ds2-paper", "ds2-defaults", "ds2-paper-defaults")) {
      var c = Controllers.byName(base + "-u0.7");
      assertEquals(base + "-u0.7", c.name());
      assertEquals("0.7", c.options().get(Ds2Options.TARGET_UTILIZATION), base);
    }
    assertEquals("flink-as-1.10-doc-u0.7", Controllers.byName("flink-as-1.10-doc-u0.7").name());
    assertEquals("flink-as-1.10-u0.7", Controllers.byName("flink-as-1.10-u0.7").name());
  }

  @Test
  void theFlinkAutoscalerIsCappedAtTheSlotsOfAClusterOfFixedSize() {
    FlinkAutoscaler110 doc = FlinkAutoscaler110.documented("doc", "0.7");
    List<String> fixed = doc.arguments(OptionalInt.of(32));
    assertTrue(fixed.contains("vertex.max-parallelism=32"), fixed.toString());
    assertTrue(fixed.contains("target.utilization=0.7"), fixed.toString());
    List<String> unknown = doc.arguments(OptionalInt.empty());
    assertTrue(
        unknown.stream().noneMatch(a -> a.startsWith("vertex.max-parallelism")),
        unknown.toString());
  }

  @Test
  void theDefaultsAreDs2sOwnWindows() {
    var paper = Controllers.byName("ds2-paper-defaults").options();
    assertEquals(
        Ds2Options.defaults().asMap().get(Ds2Options.WINDOW), paper.get(Ds2Options.WINDOW));
    assertEquals("1.0", paper.get(Ds2Options.TARGET_UTILIZATION));
  }

  @Test
  void everyNamedControllerResolves() {
    for (String name : Controllers.names()) {
      assertEquals(name, Controllers.byName(name).name());
    }
    for (String name : Controllers.atCommonTarget()) {
      assertEquals(name, Controllers.byName(name).name());
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Controllers.byName("ds3"));
    assertTrue(e.getMessage().startsWith("no controller ds3; known: "), e.getMessage());
  }
}
