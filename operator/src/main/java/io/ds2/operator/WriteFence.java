package io.ds2.operator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Client;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Keeps a replica that no longer leads from writing to Flink resources. A step in progress when
 * leadership is lost is waited for, not cut off, and its writes would otherwise still go out: the
 * soak on a real API server caught one landing 15 s into the next leader's term, a patch sent
 * during an outage and retried by the client until the server came back. So every write checks,
 * just before it goes out, that this replica still leads, and is sent once (no client-side retry)
 * with a short timeout; the Lease's own requests too ({@link LeaderElectedOperator}), so that a
 * leader stops within the renew deadline of its last renewal. The next leader starts no earlier
 * than the Lease's duration after that renewal, and a write checked in between has that gap to land
 * in.
 */
final class WriteFence {
  private static final Set<String> WRITES =
      Set.of(
          "patch",
          "edit",
          "update",
          "replace",
          "create",
          "createOr",
          "delete",
          "serverSideApply",
          "updateStatus",
          "patchStatus",
          "editStatus");

  private WriteFence() {}

  /** How long one write may take: the Lease's margin, duration less renew deadline, is 5 s. */
  static final Duration WRITE_TIMEOUT = Duration.ofSeconds(4);

  /**
   * {@code client}'s requests, each sent once and given at most {@code timeout}: a retried or slow
   * write could land after a handover, and a Lease renewal retried through an outage keeps a
   * replica leading long past its renew deadline (fabric8 checks the deadline between renewals).
   */
  static KubernetesClient sentOnce(KubernetesClient client, Duration timeout) {
    Client once =
        client.newClient(
            new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
                .withRequestRetryBackoffLimit(0)
                .withRequestTimeout((int) timeout.toMillis())
                .build());
    return once.adapt(KubernetesClient.class);
  }

  /**
   * {@code resource} whose writes throw {@link NotLeading} instead of going out while {@code leads}
   * is false; reads pass. Only the resource itself is fenced, not the handles its methods return
   * (ds2 writes through the resource directly).
   */
  @SuppressWarnings("unchecked")
  static Resource<GenericKubernetesResource> fenced(
      Resource<GenericKubernetesResource> resource, BooleanSupplier leads) {
    return (Resource<GenericKubernetesResource>)
        Proxy.newProxyInstance(
            Resource.class.getClassLoader(),
            new Class<?>[] {Resource.class},
            (proxy, method, args) -> {
              if (WRITES.contains(method.getName()) && !leads.getAsBoolean()) {
                throw new NotLeading();
              }
              try {
                return method.invoke(resource, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  /** A write not sent because this replica no longer leads. */
  static final class NotLeading extends IllegalStateException {
    NotLeading() {
      super("this replica no longer leads: the write was not sent");
    }
  }
}
