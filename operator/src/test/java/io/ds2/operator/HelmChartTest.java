package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Helm chart, linted and rendered by real Helm (helm-java bundles the engine) for default and
 * non-default values; its RBAC must be least privilege: no wildcards, no status writes, no secrets,
 * only the verbs ds2 uses.
 */
class HelmChartTest {
  private static final Path CHART = Path.of("..", "deploy", "helm", "ds2");
  private static final Set<String> VERBS =
      Set.of("get", "list", "watch", "patch", "create", "update");

  private static List<JsonNode> render(Map<String, Object> values) throws Exception {
    TemplateCommand t = new Helm(CHART).template().withName("ds2").withNamespace("ds2-system");
    values.forEach(t::set);
    String yaml = t.call();
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it =
        new YAMLMapper().readerFor(JsonNode.class).readValues(yaml)) {
      while (it.hasNext()) {
        JsonNode n = it.next();
        if (n != null && n.has("kind")) {
          docs.add(n);
        }
      }
    }
    return docs;
  }

  private static List<JsonNode> kind(List<JsonNode> docs, String kind) {
    return docs.stream().filter(d -> kind.equals(d.get("kind").asText())).toList();
  }

  private static void assertLeastPrivilege(List<JsonNode> docs) {
    List<JsonNode> roles = new ArrayList<>(kind(docs, "Role"));
    roles.addAll(kind(docs, "ClusterRole"));
    assertFalse(roles.isEmpty());
    for (JsonNode role : roles) {
      for (JsonNode rule : role.get("rules")) {
        for (String field : List.of("apiGroups", "resources", "verbs")) {
          rule.get(field)
              .forEach(v -> assertFalse(v.asText().contains("*"), field + " wildcard in " + rule));
        }
        List<String> verbs = new ArrayList<>();
        rule.get("verbs").forEach(v -> verbs.add(v.asText()));
        boolean named = rule.has("resourceNames") && rule.get("resourceNames").size() == 1;
        rule.get("resources")
            .forEach(
                r -> {
                  assertFalse(r.asText().endsWith("/status"), "status write: " + rule);
                  // Secrets: one, by name, read only (a namespace's Flink credentials).
                  if (r.asText().equals("secrets")) {
                    assertTrue(named && verbs.equals(List.of("get")), "secrets access: " + rule);
                  }
                  // The Lease: by name, but for create (which cannot be limited by name).
                  if (r.asText().equals("leases")) {
                    assertTrue(named || verbs.equals(List.of("create")), "any Lease: " + rule);
                  }
                });
        rule.get("verbs")
            .forEach(v -> assertTrue(VERBS.contains(v.asText()), "verb " + v + " in " + rule));
      }
    }
  }

  @Test
  void lintsStrictly() {
    LintResult result = new Helm(CHART).lint().strict().call();
    assertFalse(result.isFailed(), String.valueOf(result.getMessages()));
  }

  @Test
  void defaultsWatchAllNamespacesWithAClusterRoleAndAHardenedPod() throws Exception {
    List<JsonNode> docs = render(Map.of());
    assertLeastPrivilege(docs);
    assertEquals(1, kind(docs, "ClusterRole").size());
    JsonNode deployment = kind(docs, "Deployment").get(0);
    JsonNode pod = deployment.get("spec").get("template").get("spec");
    assertTrue(pod.get("securityContext").get("runAsNonRoot").asBoolean());
    JsonNode container = pod.get("containers").get(0);
    assertTrue(container.get("securityContext").get("readOnlyRootFilesystem").asBoolean());
    assertTrue(container.get("args").toString().contains("--all-namespaces"));
    assertEquals("/healthz", container.get("livenessProbe").get("httpGet").get("path").asText());
    assertEquals("/readyz", container.get("readinessProbe").get("httpGet").get("path").asText());
  }

  @Test
  void watchedNamespacesGetRolesAndOptionsReachTheConfig() throws Exception {
    List<JsonNode> docs =
        render(
            Map.of(
                "watchNamespaces[0]", "team-a",
                "watchNamespaces[1]", "team-b",
                "options.window", "60s",
                "replicas", 3,
                "management.port", 9090));
    assertLeastPrivilege(docs);
    assertTrue(kind(docs, "ClusterRole").isEmpty());
    List<String> namespaces =
        kind(docs, "Role").stream().map(r -> r.get("metadata").get("namespace").asText()).toList();
    assertTrue(
        namespaces.containsAll(List.of("team-a", "team-b", "ds2-system")), namespaces.toString());
    JsonNode container =
        kind(docs, "Deployment")
            .get(0)
            .get("spec")
            .get("template")
            .get("spec")
            .get("containers")
            .get(0);
    assertTrue(container.get("args").toString().contains("--namespace=team-a"));
    assertEquals(9090, container.get("ports").get(0).get("containerPort").asInt());
    assertTrue(
        kind(docs, "ConfigMap")
            .get(0)
            .get("data")
            .get("options.properties")
            .asText()
            .contains("window=60s"));
  }

  @Test
  void flinkCredentialsAreOneSecretByNameInTheJobsNamespaceAndUrlsAnAllowlist() throws Exception {
    List<JsonNode> docs =
        render(
            Map.of(
                "watchNamespaces[0]", "team-a",
                "flinkAccess.credentialsSecret", "flink-rest",
                "flinkAccess.allowedRestUrls[0]", "https://gateway.example/flink",
                "leaderElection.leaseName", "ds2-prod"));
    JsonNode pod = kind(docs, "Deployment").get(0).at("/spec/template/spec");
    List<String> args = new ArrayList<>();
    pod.at("/containers/0/args").forEach(a -> args.add(a.asText()));
    assertTrue(args.contains("--flink-credentials-secret=flink-rest"), args.toString());
    assertTrue(args.contains("--allowed-flink-url=https://gateway.example/flink"), args.toString());
    assertTrue(args.contains("--lease-name=ds2-prod"), args.toString());
    assertFalse(pod.toString().contains("secretName"), "no Secret is mounted: " + pod);
    assertLeastPrivilege(docs);
    JsonNode teamA =
        kind(docs, "Role").stream()
            .filter(r -> r.at("/metadata/namespace").asText().equals("team-a"))
            .findFirst()
            .orElseThrow();
    assertTrue(teamA.get("rules").toString().contains("\"resourceNames\":[\"flink-rest\"]"));
    JsonNode election =
        kind(docs, "Role").stream()
            .filter(r -> r.at("/metadata/name").asText().endsWith("-leader-election"))
            .findFirst()
            .orElseThrow();
    assertTrue(election.get("rules").toString().contains("\"resourceNames\":[\"ds2-prod\"]"));
    // Without a Secret, no rule on secrets and no flag.
    List<JsonNode> plain = render(Map.of());
    assertFalse(plain.toString().contains("secrets"));
    assertFalse(kind(plain, "Deployment").get(0).toString().contains("--flink-"));
  }
}
