package io.ds2.controller.k8s;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.controller.loop.ControlLoop;
import io.ds2.controller.loop.LoopListener;
import io.ds2.flink.JobTopology;
import io.ds2.flink.RescaleOutcome;
import io.ds2.model.keyed.KeyedHistory;
import io.ds2.model.policy.Decision;
import io.ds2.model.policy.ScalingPolicy;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;

/**
 * Saves the policy's state and the keyed vertices' history on the resource after every decision and
 * rescale, if they changed.
 */
final class PolicyStatePersister implements LoopListener {
  private final Resource<GenericKubernetesResource> resource;
  private final ScalingPolicy policy;
  private String saved = "";
  private String savedKeyed = "";
  private KeyedHistory keyed = KeyedHistory.empty();

  PolicyStatePersister(Resource<GenericKubernetesResource> resource, ScalingPolicy policy) {
    this.resource = resource;
    this.policy = policy;
  }

  private void save() {
    String now = PolicyStateAnnotation.write(policy.state());
    String nowKeyed = KeyedHistoryAnnotation.write(keyed);
    if (now.equals(saved) && nowKeyed.equals(savedKeyed)) {
      return;
    }
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    ObjectNode annotations = patch.putObject("metadata").putObject("annotations");
    annotations.put(PolicyStateAnnotation.KEY, now);
    annotations.put(KeyedHistoryAnnotation.KEY, nowKeyed);
    try {
      resource.patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
      saved = now;
      savedKeyed = nowKeyed;
    } catch (KubernetesClientException e) {
      // Tried again after the next decision.
    }
  }

  @Override
  public void decided(JobTopology t, Decision d, ControlLoop.Mode mode) {
    keyed = d.estimate().keyedHistory();
    save();
  }

  @Override
  public void rescaled(JobTopology t, Map<String, Integer> requested, RescaleOutcome outcome) {
    save();
  }
}
