package io.ds2.operator;

import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.MetricSource;
import io.ds2.loop.EventSink;
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
  /** What opening a job's ends came to. */
  sealed interface Opening {}

  /**
   * One loop's ends.
   *
   * @param listener also told the loop's events (a recording), if any
   * @param close what to close when the loop stops
   */
  record Opened(
      MetricSource source, Actuator actuator, Optional<EventSink> listener, Closeable close)
      implements Opening {}

  /**
   * The Flink operator says the job is not running (yet): nothing is wrong, the loop waits for it.
   */
  record NotRunning(String why) implements Opening {}

  /**
   * The namespace's credentials cannot be used for the job's URL; {@code why} names the Secret or
   * the URL (a Warning, then tried again).
   */
  record Refused(String why) implements Opening {}

  /**
   * The ends cannot be set up now: the resource is gone, the job is not found, or its REST client
   * cannot be set up; the loop tries again later.
   */
  record Unavailable(String why) implements Opening {}

  /**
   * @param current the resource from the informer cache (null once deleted)
   * @param resource where patches go
   */
  Opening open(
      GenericKubernetesResource r,
      JobSettings settings,
      Supplier<GenericKubernetesResource> current,
      Resource<GenericKubernetesResource> resource);
}
