package io.ds2.controller.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the operator only while holding a Lease: standbys stay up and ready but never patch; when
 * the leader stops (or loses the lease) it stops its loops at once and another instance takes over.
 * Decisions are not repeated: a spec already asking for a target is not patched again.
 */
public final class LeaderElectedOperator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElectedOperator.class);

  /** Lease timing; production values are longer than tests'. */
  public record Lease(
      String namespace,
      String name,
      String identity,
      Duration duration,
      Duration renewDeadline,
      Duration retryPeriod) {}

  private final KubernetesClient client;
  private final Supplier<Ds2Operator> factory;
  private final Lease lease;
  private volatile Ds2Operator operator;
  private volatile boolean leading;
  private CompletableFuture<?> election;

  public LeaderElectedOperator(
      KubernetesClient client, Supplier<Ds2Operator> factory, Lease lease) {
    this.client = client;
    this.factory = factory;
    this.lease = lease;
  }

  public void start() {
    election =
        client
            .leaderElector()
            .withConfig(
                new LeaderElectionConfigBuilder()
                    .withName("ds2")
                    .withLock(new LeaseLock(lease.namespace(), lease.name(), lease.identity()))
                    .withLeaseDuration(lease.duration())
                    .withRenewDeadline(lease.renewDeadline())
                    .withRetryPeriod(lease.retryPeriod())
                    .withReleaseOnCancel(true)
                    .withLeaderCallbacks(
                        new LeaderCallbacks(
                            this::startLeading,
                            this::stopLeading,
                            leader -> LOG.info("leader is now {}", leader)))
                    .build())
            .build()
            .start();
  }

  private synchronized void startLeading() {
    LOG.info("{} leads: starting the control loops", lease.identity());
    operator = factory.get();
    operator.start();
    leading = true;
  }

  private synchronized void stopLeading() {
    LOG.info("{} stopped leading: stopping the control loops", lease.identity());
    leading = false;
    if (operator != null) {
      operator.close();
      operator = null;
    }
  }

  public boolean leading() {
    return leading;
  }

  /** Ready: a standby always is; the leader once its informers have synced. */
  public boolean ready() {
    Ds2Operator o = operator;
    return !leading || (o != null && o.synced());
  }

  /** Alive unless the election itself ended in an error. */
  public boolean healthy() {
    return election != null && !election.isCompletedExceptionally();
  }

  /**
   * Stops the loops first, waiting for any step in progress, and only then gives up the lease:
   * released the other way round, the next leader could start a loop while a step of this one is
   * still patching.
   */
  @Override
  public void close() {
    stopLeading();
    if (election != null) {
      election.cancel(true);
    }
  }
}
