package io.ds2.flink;

import com.fasterxml.jackson.databind.JavaType;
import io.ds2.core.policy.SlotCapacity;
import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.RequestResult;
import io.ds2.core.scaler.RescaleStatus;
import io.ds2.core.window.JobStates;
import io.ds2.flink.FlinkRestException.Kind;
import io.ds2.flink.dto.ClusterOverview;
import io.ds2.flink.dto.JobDetails;
import io.ds2.flink.dto.ResourceRequirement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Rescales one running job in place through the adaptive scheduler's REST API (FLIP-291): reads the
 * resource requirements, PUTs every vertex with lower = upper = target; each observation reads the
 * job details, since Flink answers 200 even when it will not apply the request. A rescale that
 * times out has the previous requirements put back, so it cannot take effect later by surprise. One
 * rescale at a time per instance (the scaler core never overlaps them).
 */
public final class RestRescaler implements Actuator {
  // Failures after which the job is gone: the driver ends (or restarts) its loop.
  private static final Set<Kind> JOB_GONE = Set.of(Kind.JOB_NOT_FOUND, Kind.JOB_NOT_RUNNING);

  private final FlinkRestClient client;
  private final String jobId;
  private final Duration pollInterval;
  private final JavaType requirementsType;
  private final String path;
  private Map<String, ResourceRequirement> before = Map.of();

  public RestRescaler(FlinkRestClient client, String jobId, Duration pollInterval) {
    this.client = client;
    this.jobId = jobId;
    this.pollInterval = pollInterval;
    this.path = "/jobs/" + jobId + "/resource-requirements";
    this.requirementsType =
        client
            .mapper()
            .getTypeFactory()
            .constructMapType(LinkedHashMap.class, String.class, ResourceRequirement.class);
  }

  @Override
  public Duration pollInterval() {
    return pollInterval;
  }

  /**
   * @param target parallelism per vertex id; vertices not named keep their current requirement
   * @throws FlinkRestException JOB_NOT_FOUND or JOB_NOT_RUNNING: the job is gone
   */
  @Override
  public RequestResult request(Map<String, Integer> target) {
    try {
      before = client.get(path, requirementsType);
    } catch (FlinkRestException e) {
      if (e.httpStatus().orElse(0) == 500) {
        // The default scheduler answers the resource-requirements endpoint with 500.
        return new RequestResult.Unsupported(
            "Flink at "
                + client.baseUrl()
                + " cannot rescale job "
                + jobId
                + " through REST (is"
                + " jobmanager.scheduler set to adaptive?): "
                + e.getMessage());
      }
      return unanswered(e);
    }
    Map<String, ResourceRequirement> request = new LinkedHashMap<>();
    Map<String, Integer> wanted = new TreeMap<>();
    before.forEach(
        (vertex, current) -> {
          int p = target.getOrDefault(vertex, current.parallelism().upperBound());
          request.put(vertex, ResourceRequirement.exactly(p));
          wanted.put(vertex, p);
        });
    try {
      client.put(path, request);
    } catch (FlinkRestException e) {
      if (e.kind() == Kind.HTTP_STATUS) {
        return new RequestResult.Refused("Flink refused the rescale: " + e.getMessage());
      }
      return unanswered(e);
    }
    return new RequestResult.Accepted(wanted);
  }

  /** See {@link ClusterSlots#of}. */
  @Override
  public SlotCapacity capacity() {
    return ClusterSlots.of(client, jobId);
  }

  private static RequestResult unanswered(FlinkRestException e) {
    if (JOB_GONE.contains(e.kind())) {
      throw e;
    }
    return new RequestResult.Unanswered(e.getMessage());
  }

  /**
   * @throws FlinkRestException JOB_NOT_FOUND or JOB_NOT_RUNNING: the job is gone
   */
  @Override
  public RescaleStatus observe(Map<String, Integer> wanted) {
    JobDetails d;
    try {
      d = client.get("/jobs/" + jobId, JobDetails.class);
    } catch (FlinkRestException e) {
      if (JOB_GONE.contains(e.kind())) {
        throw e;
      }
      return new RescaleStatus.Failed(
          e.getMessage() + "; the request may still take effect, backing off");
    }
    if (JobStates.TERMINAL.contains(d.state())) {
      return new RescaleStatus.Failed("job " + jobId + " became " + d.state() + " while rescaling");
    }
    Map<String, Integer> running = running(d);
    boolean up = "RUNNING".equals(d.state()) && allRunning(d);
    if (up && running.equals(wanted)) {
      return new RescaleStatus.Applied(wanted);
    }
    return new RescaleStatus.Pending(up, running, "Flink to run " + wanted);
  }

  /** Puts the previous requirements back, so the unmet request cannot surprise anyone later. */
  @Override
  public String abandon(Map<String, Integer> wanted, RescaleStatus.Pending last, Duration timeout) {
    String restored = "previous requirements restored";
    try {
      client.put(path, before);
    } catch (FlinkRestException e) {
      restored = "putting the previous requirements back failed (" + e.getMessage() + ")";
    }
    return "requested "
        + wanted
        + " but after "
        + timeout.toSeconds()
        + " s job "
        + jobId
        + " still runs "
        + last.running()
        + slots()
        + "; "
        + restored;
  }

  private static Map<String, Integer> running(JobDetails d) {
    Map<String, Integer> p = new TreeMap<>();
    d.vertices().forEach(v -> p.put(v.id(), v.parallelism()));
    return p;
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
