package io.ds2.flink;

import io.ds2.flink.FlinkRestException.Kind;
import io.ds2.flink.dto.JobOverview;
import io.ds2.flink.dto.JobsOverview;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Finds the job the user means: by id, by name, or the only running job. */
public final class JobLocator {
  private final FlinkRestClient client;

  public JobLocator(FlinkRestClient client) {
    this.client = client;
  }

  /**
   * @param idOrName a job id or name; empty means "the only running job"
   * @return the matching RUNNING job
   * @throws FlinkRestException JOB_NOT_FOUND, JOB_AMBIGUOUS or JOB_NOT_RUNNING with a listing
   */
  public JobOverview locate(Optional<String> idOrName) {
    List<JobOverview> jobs = client.get("/jobs/overview", JobsOverview.class).jobs();
    if (jobs == null) {
      throw new FlinkRestException(
          Kind.MALFORMED_RESPONSE, "GET " + client.baseUrl() + "/jobs/overview has no 'jobs'");
    }
    List<JobOverview> running = jobs.stream().filter(j -> "RUNNING".equals(j.state())).toList();
    if (idOrName.isEmpty()) {
      return only(running, jobs, "running jobs");
    }
    String want = idOrName.get();
    Optional<JobOverview> byId = jobs.stream().filter(j -> want.equals(j.jid())).findFirst();
    if (byId.isPresent()) {
      return requireRunning(byId.get());
    }
    List<JobOverview> named = jobs.stream().filter(j -> want.equals(j.name())).toList();
    if (named.isEmpty()) {
      throw new FlinkRestException(
          Kind.JOB_NOT_FOUND,
          "no job with id or name '"
              + want
              + "' at "
              + client.baseUrl()
              + "; jobs there: "
              + list(jobs));
    }
    List<JobOverview> namedRunning =
        named.stream().filter(j -> "RUNNING".equals(j.state())).toList();
    return namedRunning.isEmpty()
        ? requireRunning(named.get(0))
        : only(namedRunning, jobs, "running jobs named '" + want + "'");
  }

  private JobOverview only(List<JobOverview> candidates, List<JobOverview> all, String what) {
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
    if (candidates.isEmpty()) {
      throw new FlinkRestException(
          Kind.JOB_NOT_FOUND,
          "no running job at "
              + client.baseUrl()
              + (all.isEmpty() ? "" : "; jobs there: " + list(all)));
    }
    throw new FlinkRestException(
        Kind.JOB_AMBIGUOUS,
        candidates.size()
            + " "
            + what
            + " at "
            + client.baseUrl()
            + "; choose one with --job: "
            + list(candidates));
  }

  private JobOverview requireRunning(JobOverview job) {
    if (!"RUNNING".equals(job.state())) {
      throw new FlinkRestException(
          Kind.JOB_NOT_RUNNING, "job " + job.describe() + " is not RUNNING");
    }
    return job;
  }

  private static String list(List<JobOverview> jobs) {
    return jobs.stream().map(JobOverview::describe).collect(Collectors.joining(", "));
  }
}
