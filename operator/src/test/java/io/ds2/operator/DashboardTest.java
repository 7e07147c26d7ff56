package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Grafana dashboard queries only metrics the operator exposes, and all of them. */
class DashboardTest {
  @Test
  void everyQueriedMetricExists() throws Exception {
    JsonNode dashboard =
        new ObjectMapper()
            .readTree(Path.of("..", "deploy", "dashboard", "ds2-grafana.json").toFile());
    Set<String> queried = new TreeSet<>();
    Matcher m = Pattern.compile("\\bds2_[a-z_]+").matcher(dashboard.toString());
    while (m.find()) {
      queried.add(m.group());
    }
    Set<String> exposed = new OperatorMetrics().names();
    assertTrue(exposed.containsAll(queried), "unknown metrics in the dashboard: " + queried);
    assertEquals(exposed, queried, "every metric has a panel");
  }
}
