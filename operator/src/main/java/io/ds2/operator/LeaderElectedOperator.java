package io.ds2.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the operator only while holding a Lease: standbys stay up and ready but never patch; when
 * the leader stops (or loses the lease) it stops its loops at once and another instance takes over,
 * and an instance that lost the Lease contends for it again. Decisions are not repeated: a spec
 * already asking for a target is not patched again.
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
  private volatile CompletableFuture<?> election;
  private volatile boolean closed;
  // Starts and stops the loops, one at a time, off the elector's thread.
  private final ExecutorService lifecycle =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "ds2-leadership");
            t.setDaemon(true);
            return t;
          });
  private volatile Future<?> stopped = CompletableFuture.completedFuture(null);

  public LeaderElectedOperator(
      KubernetesClient client, Supplier<Ds2Operator> factory, Lease lease) {
    this.client = client;
    this.factory = factory;
    this.lease = lease;
  }

  /** Contends for the Lease, and again every time leadership is lost, until {@link #close}. */
  public synchronized void start() {
    if (closed) {
      return;
    }
    // Each renewal sent once, for a quarter of the renew deadline (at least 1 s): fabric8 checks
    // the
    // deadline only between renewals, and one retried through an API-server outage kept a
    // replica leading 28 s without a Lease (the operator soak).
    CompletableFuture<?> e =
        WriteFence.sentOnce(client, max(lease.renewDeadline().dividedBy(4), Duration.ofSeconds(1)))
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
    election = e;
    // fabric8's election ends when a renewal fails (an API-server outage longer than the renew
    // deadline, the Lease taken over): without contending again this replica would stand by for
    // good, and with two such outages no replica would lead.
    e.whenComplete(
        (v, failure) -> {
          if (!closed) {
            LOG.warn(
                "{} is out of the leader election ({}); contending again",
                lease.identity(),
                failure == null ? "leadership lost" : failure.toString());
            CompletableFuture.runAsync(
                this::start,
                CompletableFuture.delayedExecutor(
                    lease.retryPeriod().toMillis(), TimeUnit.MILLISECONDS));
          }
        });
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private synchronized void startLeading() {
    LOG.info("{} leads: starting the control loops", lease.identity());
    // Leading before the loops start: the write fence reads it.
    leading = true;
    Ds2Operator o = factory.get().withWriteFence(this::leading);
    operator = o;
    // Not on the elector's thread: fabric8 renews the Lease on it, and an informer's first list
    // waits for an API server that is down (the soak: a replica started leading just before an
    // outage and renewed nothing until the server was back).
    lifecycle.submit(o::start);
  }

  private synchronized void stopLeading() {
    LOG.info("{} stopped leading: stopping the control loops", lease.identity());
    leading = false;
    Ds2Operator o = operator;
    operator = null;
    if (o != null) {
      // After its start, in order; its writes are fenced from now on (leading is false).
      stopped = lifecycle.submit(o::close);
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

  /**
   * Alive while it takes part in the election: contending, standing by or leading. Between a lost
   * election and the next one it is not, and if contending again failed it stays so: then the
   * liveness probe restarts the pod.
   */
  public boolean healthy() {
    CompletableFuture<?> e = election;
    return !closed && e != null && !e.isDone();
  }

  /**
   * Stops the loops first, waiting for any step in progress, and only then gives up the lease:
   * released the other way round, the next leader could start a loop while a step of this one is
   * still patching.
   */
  @Override
  public void close() {
    closed = true;
    stopLeading();
    try {
      stopped.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      LOG.warn("{}: stopping the control loops failed", lease.identity(), e.getCause());
    }
    lifecycle.shutdown();
    CompletableFuture<?> e = election;
    if (e != null) {
      e.cancel(true);
    }
  }
}
