package io.ds2.operator;

import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.forecast.Outlook;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.VertexDecision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.window.WindowProblem;
import io.ds2.loop.EventSink;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The operator's Prometheus metrics; namespace, resource and vertex are labels, never part of a
 * metric name.
 */
public final class OperatorMetrics {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Gauge parallelism =
      gauge("ds2_vertex_parallelism", "Parallelism a job vertex runs at");
  private final Gauge recommended =
      gauge("ds2_vertex_recommended_parallelism", "Parallelism DS2 recommends for a job vertex");
  private final Gauge trueRate =
      gauge("ds2_vertex_true_processing_rate", "Records per busy second of one instance");
  private final Gauge targetRate =
      gauge("ds2_vertex_target_input_rate", "Records per second the vertex must absorb");
  private final Gauge forecastParallelism =
      gauge(
          "ds2_vertex_forecast_parallelism",
          "Parallelism the demand forecast would lead to (where it rises above the measured)");
  private final Gauge forecastRate =
      gauge("ds2_source_forecast_rate", "A source's forecast peak demand within the lead time");
  private final Counter decisions =
      Counter.builder()
          .name("ds2_decisions")
          .help("Decisions made")
          .labelNames("namespace", "resource", "action")
          .register(registry);
  private final Counter rescales =
      Counter.builder()
          .name("ds2_rescales")
          .help("Rescales requested, by outcome")
          .labelNames("namespace", "resource", "outcome")
          .register(registry);
  private final Counter errors =
      Counter.builder()
          .name("ds2_errors")
          .help("Problems the loop reported and retried")
          .labelNames("namespace", "resource")
          .register(registry);
  private final Gauge lastDecision =
      Gauge.builder()
          .name("ds2_last_decision_timestamp_seconds")
          .help("When the job's last decision was made (stalls show as its age growing)")
          .labelNames("namespace", "resource")
          .register(registry);
  private final Gauge leader =
      Gauge.builder()
          .name("ds2_leader")
          .help("1 while this instance holds the lease")
          .register(registry);

  private Gauge gauge(String name, String help) {
    return Gauge.builder()
        .name(name)
        .help(help)
        .labelNames("namespace", "resource", "vertex")
        .register(registry);
  }

  /** The exposed metric names (counters with their {@code _total} suffix). */
  public java.util.Set<String> names() {
    java.util.Set<String> names = new java.util.TreeSet<>();
    for (var snapshot : registry.scrape()) {
      String name = snapshot.getMetadata().getPrometheusName();
      names.add(
          snapshot instanceof io.prometheus.metrics.model.snapshots.CounterSnapshot
              ? name + "_total"
              : name);
    }
    return names;
  }

  public void leading(boolean isLeader) {
    leader.set(isLeader ? 1 : 0);
  }

  /** The Prometheus text format of every metric. */
  public void write(OutputStream out) throws IOException {
    PrometheusTextFormatWriter.create().write(out, registry.scrape());
  }

  public String text() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * Drops every series of one resource (it was deleted or opted out): a long-lived operator keeps
   * only the jobs it manages.
   */
  void forget(String namespace, String resource) {
    for (var metric :
        List.of(
            parallelism,
            recommended,
            trueRate,
            targetRate,
            forecastParallelism,
            forecastRate,
            decisions,
            rescales)) {
      metric.removeIf(labels -> labels.get(0).equals(namespace) && labels.get(1).equals(resource));
    }
    for (var metric : List.of(errors, lastDecision)) {
      metric.removeIf(labels -> labels.get(0).equals(namespace) && labels.get(1).equals(resource));
    }
  }

  /**
   * One job's figures as the metrics hold them.
   *
   * @param lastDecision epoch seconds of its last decision, 0 before the first
   */
  public record JobFigures(
      double decisions, double appliedRescales, double errors, double lastDecision) {}

  /** A managed job's figures (reading them creates its series if it has none yet). */
  public JobFigures figures(String namespace, String resource) {
    return new JobFigures(
        decisions.labelValues(namespace, resource, "rescale").get()
            + decisions.labelValues(namespace, resource, "hold").get(),
        rescales.labelValues(namespace, resource, RescaleOutcome.Kind.APPLIED.label()).get(),
        errors.labelValues(namespace, resource).get(),
        lastDecision.labelValues(namespace, resource).get());
  }

  /** How many series the metrics hold (for the soak benchmark: flat under churn). */
  public int series() {
    int n = 0;
    for (var snapshot : registry.scrape()) {
      n += snapshot.getDataPoints().size();
    }
    return n;
  }

  /** A listener recording one resource's loop. */
  EventSink listenerFor(String namespace, String resource) {
    return new EventSink() {
      private void decided(JobTopology t, Decision d, Mode mode) {
        String action = d.action() instanceof Action.Rescale ? "rescale" : "hold";
        decisions.labelValues(namespace, resource, action).inc();
        lastDecision.labelValues(namespace, resource).set(d.time().toEpochMilli() / 1000.0);
        for (VertexDecision v : d.vertices()) {
          parallelism.labelValues(namespace, resource, v.name()).set(v.current());
          recommended.labelValues(namespace, resource, v.name()).set(v.recommended());
          VertexEstimate e = d.estimate().vertex(v.vertexId()).orElseThrow();
          e.trueProcessingRatePerInstance()
              .ifPresent(r -> trueRate.labelValues(namespace, resource, v.name()).set(r));
          e.targetInputRate()
              .ifPresent(r -> targetRate.labelValues(namespace, resource, v.name()).set(r));
        }
      }

      /**
       * The forecast's peak per source and the parallelism it would lead to per vertex (the
       * measured need where it does not rise); nothing while there is no forecast (its series keep
       * their last values only until the resource is forgotten).
       */
      private void forecasted(JobTopology t, ScalerEvent.Forecasted f) {
        if (!(f.outlook() instanceof Outlook.Ahead a)) {
          return;
        }
        a.peak()
            .forEach(
                (source, rate) -> forecastRate.labelValues(namespace, resource, source).set(rate));
        f.measuredNeed()
            .forEach(
                (id, need) ->
                    t.graph()
                        .vertex(id)
                        .ifPresent(
                            v ->
                                forecastParallelism
                                    .labelValues(namespace, resource, v.name())
                                    .set(f.wouldNeed().getOrDefault(id, need))));
      }

      private void rescaled(JobTopology t, Map<String, Integer> requested, RescaleOutcome outcome) {
        rescales.labelValues(namespace, resource, outcome.kind().label()).inc();
      }

      private void problem(ScalerEvent.Problem p) {
        errors.labelValues(namespace, resource).inc();
      }

      private void waiting(Duration collected, Duration wanted, String status) {}

      private void samplesDropped(WindowProblem problem, String detail) {}

      @Override
      public void on(JobTopology topology, ScalerEvent event) {
        if (event instanceof ScalerEvent.Decided d) {
          decided(topology, d.decision(), d.mode());
        } else if (event instanceof ScalerEvent.Rescaled r) {
          rescaled(topology, r.requested(), r.outcome());
        } else if (event instanceof ScalerEvent.Forecasted f) {
          forecasted(topology, f);
        } else if (event instanceof ScalerEvent.Problem p) {
          problem(p);
        } else if (event instanceof ScalerEvent.Waiting w) {
          waiting(w.collected(), w.wanted(), w.status());
        } else if (event instanceof ScalerEvent.SamplesDropped s) {
          samplesDropped(s.problem(), s.detail());
        }
      }
    };
  }
}
