package io.ds2.operator;

import io.ds2.core.policy.SlotCapacity;
import io.ds2.core.scaler.SourceFailure;
import io.ds2.flink.ClusterSlots;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.FlinkRestClient.ResponseText;
import io.ds2.flink.JobLocator;
import io.ds2.flink.JobSampler;
import io.ds2.flink.RestAccess;
import io.ds2.recording.LiveRecording;
import io.ds2.recording.RecordingWriter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A managed job's ends in production: its Flink REST API (the job located by the resource's status,
 * or the only running one) and the Flink operator's parallelism overrides; optionally a recording
 * of everything the loop sees.
 */
final class RestEnds implements JobEnds {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RestEnds.class);
  private static final Duration RESCALE_POLL = Duration.ofMillis(500);
  private final NamespaceCredentials credentials;
  private final Optional<RecordingDir> recordDir;
  private final Clock clock;

  private final Function<String, List<ResourceQuota>> quotas;

  /**
   * @param quotas a namespace's ResourceQuotas (empty if they cannot be read)
   */
  RestEnds(
      NamespaceCredentials credentials,
      Optional<RecordingDir> recordDir,
      Clock clock,
      Function<String, List<ResourceQuota>> quotas) {
    this.credentials = credentials;
    this.recordDir = recordDir;
    this.clock = clock;
    this.quotas = quotas;
  }

  @Override
  public Opening open(
      GenericKubernetesResource r,
      JobSettings settings,
      Supplier<GenericKubernetesResource> current,
      Resource<GenericKubernetesResource> resource) {
    GenericKubernetesResource now = current.get();
    if (now == null) {
      return new Unavailable(
          r.getMetadata().getNamespace() + "/" + r.getMetadata().getName() + " is gone");
    }
    // A job being deployed is not a problem to warn about: its REST API is not up yet.
    Optional<String> notRunning = FlinkKinds.notRunning(now);
    if (notRunning.isPresent()) {
      return new NotRunning(notRunning.get());
    }
    // The namespace's Secret is read here: a bad one is reported, then tried again. What Flink
    // answers stays out of messages: they become events whoever reads the namespace sees.
    RestAccess access;
    try {
      access = credentials.access(r.getMetadata().getNamespace(), settings.restUrl());
    } catch (NamespaceCredentials.Refused e) {
      return new Refused(e.getMessage());
    }
    FlinkRestClient rest;
    try {
      rest =
          new FlinkRestClient(
              settings.restUrl(), Duration.ofSeconds(10), access, ResponseText.WITHHELD);
    } catch (IllegalArgumentException e) {
      return new Unavailable("cannot set up the Flink REST client: " + e.getMessage());
    }
    try {
      return open(r, now, settings, current, resource, rest);
    } catch (SourceFailure e) {
      return new Unavailable(e.getMessage());
    }
  }

  private Opening open(
      GenericKubernetesResource r,
      GenericKubernetesResource now,
      JobSettings settings,
      Supplier<GenericKubernetesResource> current,
      Resource<GenericKubernetesResource> resource,
      FlinkRestClient rest) {
    Optional<String> jobId = FlinkKinds.string(now, "status", "jobStatus", "jobId");
    String jid = new JobLocator(rest).locate(jobId).jid();
    JobSampler sampler = new JobSampler(rest, jid, clock);
    OverridesActuator actuator =
        new OverridesActuator(current, resource, sampler, RESCALE_POLL)
            .withClusterSlots(() -> ClusterSlots.of(rest, jid))
            .withOnDemandSlots(
                () -> {
                  GenericKubernetesResource at = current.get();
                  return at == null
                      ? SlotCapacity.unknown()
                      : QuotaSlots.of(
                          at,
                          quotas.apply(r.getMetadata().getNamespace()),
                          ClusterSlots.total(rest));
                });
    if (recordDir.isEmpty()) {
      return new Opened(sampler, actuator, Optional.empty(), () -> {});
    }
    // Best effort: a recording that cannot be written (a full disk) stops; the loop goes on.
    String job = r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
    RecordingDir dir = recordDir.get();
    RecordingWriter writer;
    try {
      writer =
          RecordingWriter.rotating(
              () -> dir.next(r.getMetadata().getNamespace(), r.getMetadata().getName(), clock),
              dir.maxFileBytes(),
              why -> LOG.warn("{}: {}", job, why));
    } catch (IOException | UncheckedIOException e) {
      LOG.warn(
          "{}: cannot start a recording in {}: {}; scaling goes on",
          job,
          dir.dir(),
          e.getMessage());
      return new Opened(sampler, actuator, Optional.empty(), () -> {});
    }
    LiveRecording recording;
    try {
      recording =
          LiveRecording.start(
              writer,
              rest,
              sampler,
              sampler.topology(),
              settings.options().sampleInterval(),
              settings.options().asMap(),
              settings.sourceSplits(),
              clock);
    } catch (SourceFailure e) {
      closeQuietly(writer);
      throw e;
    }
    return new Opened(
        recording.source(), actuator, Optional.of(recording.listener()), recording::close);
  }

  private static void closeQuietly(RecordingWriter writer) {
    try {
      writer.close();
    } catch (IOException | UncheckedIOException e) {
      LOG.debug("recording not closed", e);
    }
  }
}
