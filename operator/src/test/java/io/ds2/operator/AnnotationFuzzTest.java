package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.options.Ds2Options;
import io.ds2.core.options.OptionSpec;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Any value in any ds2.io annotation: the job's settings, or one reason naming the annotation
 * (which becomes a Warning event and leaves the job alone); never another exception.
 */
class AnnotationFuzzTest {
  @Provide
  Arbitrary<String> keys() {
    return Arbitraries.of(Ds2Options.SPECS.stream().map(OptionSpec::name).toList())
        .map(n -> JobSettings.PREFIX + n)
        .injectDuplicates(0.1)
        .edgeCases(c -> c.add(JobSettings.AUTOSCALING).add(JobSettings.REST_URL));
  }

  @Provide
  Arbitrary<String> values() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(30),
        Arbitraries.of(
            "",
            "enabled",
            "advisor",
            "ENABLED ",
            "30s",
            "-1",
            "1e309",
            "NaN",
            "http://",
            "ftp://x",
            "http://[::1",
            "http://flink:8081",
            "0",
            "2147483648",
            "none",
            "30s\nwindow: 1s",
            "advisor\r\n",
            "\u2028"));
  }

  @Property(tries = 300)
  void anAnnotationIsReadOrRefusedByName(
      @ForAll("keys") String key, @ForAll("values") String value, @ForAll boolean optedIn) {
    Map<String, String> a = new HashMap<>();
    if (optedIn) {
      a.put(JobSettings.AUTOSCALING, "enabled");
    }
    a.put(key, value);
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setMetadata(
        new ObjectMetaBuilder().withName("j").withNamespace("ns").withAnnotations(a).build());
    try {
      JobSettings.of(r, Ds2Options.defaults());
    } catch (JobSettings.Invalid e) {
      assertTrue(e.getMessage().startsWith("annotation "), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
  }
}
