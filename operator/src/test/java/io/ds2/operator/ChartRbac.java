package io.ds2.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Helm chart's service account and RBAC, rendered by real Helm and applied to a real API
 * server, optionally with one verb taken out of the rule on FlinkDeployments (to show that the
 * server, not a reading of the YAML, enforces the chart).
 */
public final class ChartRbac {
  static final Path CHART = Path.of(System.getProperty("ds2.repo", ".."), "deploy", "helm", "ds2");
  private static final Set<String> RBAC =
      Set.of("ServiceAccount", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding");

  private ChartRbac() {}

  /**
   * @param release the Helm release name (also the service account's name)
   * @param namespace the release namespace (where the service account and the Lease live)
   * @param withoutVerb a verb to drop from the FlinkDeployments rule, or null for the chart as is
   * @return the service account's name
   */
  public static String apply(
      KubernetesClient admin,
      String release,
      String namespace,
      Map<String, Object> values,
      String withoutVerb) {
    TemplateCommand t = new Helm(CHART).template().withName(release).withNamespace(namespace);
    values.forEach(t::set);
    String yaml = t.call();
    List<HasMetadata> objects = new ArrayList<>();
    try (MappingIterator<JsonNode> it =
        new YAMLMapper().readerFor(JsonNode.class).readValues(yaml)) {
      while (it.hasNext()) {
        JsonNode n = it.next();
        if (n != null && RBAC.contains(n.path("kind").asText())) {
          objects.add(admin.getKubernetesSerialization().convertValue(n, HasMetadata.class));
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    String serviceAccount = null;
    for (HasMetadata o : objects) {
      if (o.getMetadata().getNamespace() == null && !o.getKind().startsWith("Cluster")) {
        o.getMetadata().setNamespace(namespace);
      }
      if (o.getKind().equals("ServiceAccount")) {
        serviceAccount = o.getMetadata().getName();
      }
      if (withoutVerb != null) {
        List<PolicyRule> rules =
            o instanceof Role r ? r.getRules() : o instanceof ClusterRole c ? c.getRules() : null;
        if (rules != null) {
          rules.stream()
              .filter(rule -> rule.getResources().contains("flinkdeployments"))
              .forEach(rule -> rule.getVerbs().remove(withoutVerb));
        }
      }
      admin.resource(o).createOr(existing -> existing.update());
    }
    if (serviceAccount == null) {
      throw new IllegalStateException("the chart rendered no ServiceAccount");
    }
    return serviceAccount;
  }
}
