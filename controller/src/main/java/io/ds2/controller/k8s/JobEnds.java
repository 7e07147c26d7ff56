package io.ds2.controller.k8s;

import io.ds2.controller.loop.EventSink;
import io.ds2.model.scaler.Actuator;
import io.ds2.model.scaler.MetricSource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.Closeable;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where a managed job's metrics come from and how it is rescaled: Flink's REST API and the Flink
 * operator's overrides ({@link RestEnds}), or test doubles.
 */
interface JobEnds {
  /**
   * One loop's ends.
   *
   * @param listener also told the loop's events (a recording), if any
   * @param close what to close when the loop stops
   */
  record Opened(
      MetricSource source, Actuator actuator, Optional<EventSink> listener, Closeable close) {}

  /**
   * The Flink operator says the job is not running (yet): nothing is wrong, the loop waits for it.
   */
  final class NotRunning extends RuntimeException {
    NotRunning(String why) {
      super(why);
    }
  }

  /**
   * @param current the resource from the informer cache (null once deleted)
   * @param resource where patches go
   * @throws NotRunning if the Flink operator says the job is not running
   * @throws io.ds2.flink.FlinkRestException if the job cannot be found; the loop tries again later
   * @throws NamespaceCredentials.Refused if the namespace's credentials cannot be used for the URL
   * @throws IllegalArgumentException if the REST client cannot be set up
   */
  Opened open(
      GenericKubernetesResource r,
      JobSettings settings,
      Supplier<GenericKubernetesResource> current,
      Resource<GenericKubernetesResource> resource);
}
