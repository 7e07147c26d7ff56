package io.ds2.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RequestResult;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.RescaleStatus;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import io.ds2.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A rescale request that fails the way REST can (refused, or no answer: it may still take effect)
 * is reported and backed off from, never repeated at once, and never ends the loop. The job is a
 * steady, under-provisioned one (Work needs 3 instances) simulated in memory; model and policy are
 * the real ones.
 */
class RescaleFaultsTest {
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source", 128), new Vertex("w", "Work", 128)),
          List.of(new Edge("s", "w", "REBALANCE")));
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** Work (1 instance, 10 ms a record) runs flat out at 100/s; 300/s arrive at the source. */
  private static final class SteadyJob implements MetricSource {
    final ManualClock clock = new ManualClock(T0);

    @Override
    public String jobId() {
      return "job";
    }

    @Override
    public JobTopology topology() {
      return new JobTopology("job", "steady", GRAPH);
    }

    @Override
    public JobSample sample(JobGraph graph) {
      double t = Duration.between(T0, clock.instant()).toMillis() / 1000.0 + 100;
      return new JobSample(
          clock.instant(),
          "RUNNING",
          T0.minusSeconds(100),
          OptionalLong.of(0),
          Map.of(
              "s",
              new VertexSample(
                  "s",
                  "RUNNING",
                  1,
                  List.of(SubtaskSample.of(0, 100 * t, 100 * t, 0, 0, 1000 * t)),
                  OptionalDouble.of(200 * t)),
              "w",
              new VertexSample(
                  "w",
                  "RUNNING",
                  1,
                  List.of(SubtaskSample.of(0, 100 * t, 100 * t, 1000 * t, 0, 0)),
                  OptionalDouble.empty())));
    }
  }

  private record Run(
      List<Decision> decisions,
      List<RescaleOutcome> outcomes,
      List<String> problems,
      int requests) {}

  private static Run run(RequestResult answer) throws Exception {
    SteadyJob job = new SteadyJob();
    ManualClock clock = job.clock;
    AtomicInteger requests = new AtomicInteger();
    List<Decision> decisions = new ArrayList<>();
    List<RescaleOutcome> outcomes = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    EventSink listener =
        new EventSink() {
          private void decided(JobTopology t, Decision d, Mode mode) {
            decisions.add(d);
          }

          private void rescaled(JobTopology t, Map<String, Integer> r, RescaleOutcome o) {
            outcomes.add(o);
          }

          private void problem(ScalerEvent.Problem p) {
            problems.add(p.text());
          }

          @Override
          public void on(JobTopology topology, ScalerEvent event) {
            if (event instanceof ScalerEvent.Decided d) {
              decided(topology, d.decision(), d.mode());
            } else if (event instanceof ScalerEvent.Rescaled r) {
              rescaled(topology, r.requested(), r.outcome());
            } else if (event instanceof ScalerEvent.Problem p) {
              problem(p);
            }
          }
        };
    new ControlLoop(
            job,
            new ScalingPolicy(LoopTestSupport.options("warm-up", "0s", "rescale-backoff", "5m")),
            new Actuator() {
              @Override
              public RequestResult request(Map<String, Integer> target) {
                requests.incrementAndGet();
                return answer;
              }

              @Override
              public RescaleStatus observe(Map<String, Integer> wanted) {
                throw new AssertionError("nothing to observe: the request was not taken");
              }

              @Override
              public Duration pollInterval() {
                return Duration.ofMillis(250);
              }

              @Override
              public String abandon(
                  Map<String, Integer> wanted, RescaleStatus.Pending last, Duration timeout) {
                throw new AssertionError("nothing to abandon");
              }
            },
            Mode.ACT,
            DemandScenario.measured(),
            listener,
            clock::advance,
            clock)
        .run(() -> clock.instant().isBefore(T0.plus(Duration.ofMinutes(30))), 10);
    return new Run(decisions, outcomes, problems, requests.get());
  }

  @Test
  void aRescaleThatTimesOutIsReportedAndBackedOffFromNotRepeated() throws Exception {
    Run r =
        run(
            new RequestResult.Unanswered(
                "Flink REST API did not answer PUT http://flink/jobs/job/resource-requirements"
                    + " within 2.0 s"));
    assertEquals(10, r.decisions().size(), "the loop went on");
    assertInstanceOf(Action.Rescale.class, r.decisions().get(0).action());
    assertEquals(1, r.requests(), "one request over ten decisions: backed off, no second rescale");
    RescaleOutcome.Failed failed =
        assertInstanceOf(RescaleOutcome.Failed.class, r.outcomes().get(0));
    assertTrue(failed.message().contains("did not answer PUT"), failed.message());
    assertTrue(failed.message().contains("may still take effect"), failed.message());
  }

  @Test
  void aRefusedRescaleIsBackedOffFromToo() throws Exception {
    Run r =
        run(
            new RequestResult.Refused(
                "Flink refused the rescale: PUT http://flink/jobs/job/resource-requirements"
                    + " returned HTTP 500: oops"));
    assertEquals(10, r.decisions().size());
    assertEquals(1, r.requests());
  }
}
