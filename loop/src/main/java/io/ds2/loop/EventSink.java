package io.ds2.loop;

import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.ScalerEvent;

/**
 * A sink of one job's scaler events (decision log, stdout summary, demo table, Kubernetes events,
 * metrics, recordings, what-if), told the job's topology so it can name vertices: one interface,
 * the events as the core reports them; each sink takes the kinds it renders.
 */
@FunctionalInterface
public interface EventSink {
  /**
   * @param topology the job's, or null where the loop failed before reading it (a problem)
   */
  void on(JobTopology topology, ScalerEvent event);

  /** Tells every sink in turn. */
  static EventSink all(EventSink... listeners) {
    return (topology, event) -> {
      for (EventSink l : listeners) {
        l.on(topology, event);
      }
    };
  }
}
