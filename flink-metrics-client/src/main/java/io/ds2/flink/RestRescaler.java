package io.ds2.flink;

import com.fasterxml.jackson.databind.JavaType;
import io.ds2.flink.FlinkRestException.Kind;
import io.ds2.flink.dto.ClusterOverview;
import io.ds2.flink.dto.JobDetails;
import io.ds2.flink.dto.ResourceRequirement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Rescales a running job in place through the adaptive scheduler's REST API (FLIP-291): reads the
 * resource requirements, PUTs every vertex with lower = upper = target, then verifies from the job
 * details that the job runs at the requested parallelism. Flink answers 200 even when it will not
 * apply the request, so only that verification counts.
 */
public final class RestRescaler {
  private final FlinkRestClient client;
  private final Clock clock;
  private final WindowCollector.Sleeper sleeper;
  private final Duration pollInterval;
  private final JavaType requirementsType;

  public RestRescaler(
      FlinkRestClient client, Clock clock, WindowCollector.Sleeper sleeper, Duration pollInterval) {
    this.client = client;
    this.clock = clock;
    this.sleeper = sleeper;
    this.pollInterval = pollInterval;
    this.requirementsType =
        client
            .mapper()
            .getTypeFactory()
            .constructMapType(LinkedHashMap.class, String.class, ResourceRequirement.class);
  }

  /**
   * @param target parallelism per vertex id; vertices not named keep their current requirement
   * @throws InterruptedException if interrupted while waiting; the request stays with Flink
   */
  public RescaleOutcome rescale(String jobId, Map<String, Integer> target, Duration timeout)
      throws InterruptedException {
    String path = "/jobs/" + jobId + "/resource-requirements";
    Map<String, ResourceRequirement> before;
    try {
      before = client.get(path, requirementsType);
    } catch (FlinkRestException e) {
      if (e.kind() == Kind.HTTP_STATUS && e.getMessage().contains("HTTP 500")) {
        return new RescaleOutcome.Unsupported(
            "Flink at "
                + client.baseUrl()
                + " cannot rescale job "
                + jobId
                + " through REST (is"
                + " jobmanager.scheduler set to adaptive?): "
                + e.getMessage());
      }
      throw e;
    }
    Map<String, ResourceRequirement> request = new LinkedHashMap<>();
    Map<String, Integer> wanted = new TreeMap<>();
    before.forEach(
        (vertex, current) -> {
          int p = target.getOrDefault(vertex, current.parallelism().upperBound());
          request.put(vertex, ResourceRequirement.exactly(p));
          wanted.put(vertex, p);
        });
    Instant start = clock.instant();
    try {
      client.put(path, request);
    } catch (FlinkRestException e) {
      if (e.kind() == Kind.HTTP_STATUS) {
        return new RescaleOutcome.Failed("Flink refused the rescale: " + e.getMessage());
      }
      throw e;
    }
    Map<String, Integer> running = Map.of();
    JobDetails d;
    Instant down = null; // first poll that saw the job down
    Instant lastUp = start; // last poll that saw it up at the old parallelism
    while (true) {
      d = client.get("/jobs/" + jobId, JobDetails.class);
      Instant seen = clock.instant();
      if (JobStates.TERMINAL.contains(d.state())) {
        return new RescaleOutcome.Failed(
            "job " + jobId + " became " + d.state() + " while rescaling");
      }
      running = running(d);
      boolean up = "RUNNING".equals(d.state()) && allRunning(d);
      if (up && running.equals(wanted)) {
        // If no poll caught it down, it was down somewhere between the last two polls.
        Duration downtime = Duration.between(down != null ? down : lastUp, seen);
        return new RescaleOutcome.Applied(wanted, Duration.between(start, seen), downtime);
      }
      if (!up && down == null) {
        down = seen;
      } else if (up) {
        lastUp = seen;
      }
      if (!clock.instant().plus(pollInterval).isBefore(start.plus(timeout))) {
        break;
      }
      sleeper.sleep(pollInterval);
    }
    client.put(path, before); // so the unmet request cannot surprise anyone later
    return new RescaleOutcome.NotApplied(
        wanted,
        running,
        "requested "
            + wanted
            + " but after "
            + timeout.toSeconds()
            + " s job "
            + jobId
            + " still runs "
            + running
            + slots()
            + "; previous requirements restored");
  }

  private static Map<String, Integer> running(JobDetails d) {
    Map<String, Integer> p = new TreeMap<>();
    d.vertices().forEach(v -> p.put(v.id(), v.parallelism()));
    return p;
  }

  /** {@code {Parse=3, Join=4}} in the job's vertex order, for people. */
  private static String named(Map<String, Integer> byId, JobDetails d) {
    StringJoiner j = new StringJoiner(", ", "{", "}");
    d.vertices().forEach(v -> j.add(v.name() + "=" + byId.get(v.id())));
    return j.toString();
  }

  private static boolean allRunning(JobDetails d) {
    return d.vertices().stream().allMatch(v -> "RUNNING".equals(v.status()));
  }

  // Best effort: explains the usual cause; the outcome stands without it.
  private String slots() {
    try {
      ClusterOverview o = client.get("/overview", ClusterOverview.class);
      return " (cluster slots: " + o.slotsTotal() + " total, " + o.slotsAvailable() + " free)";
    } catch (FlinkRestException e) {
      return "";
    }
  }
}
