package io.ds2.flink;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.scaler.WindowAssembly;
import io.ds2.core.window.ObservationWindow;
import java.time.Duration;
import java.time.Instant;

/** Polls a job until the scaler's window assembly has a clean window, as the loop does. */
final class Windows {
  private Windows() {}

  static ObservationWindow collect(MetricSource source, JobGraph graph, Ds2Options options)
      throws InterruptedException {
    WindowAssembly assembly = new WindowAssembly(options);
    assembly.begin(Instant.now());
    while (true) {
      Instant polled = Instant.now();
      WindowAssembly.Progress p = assembly.add(graph, source.sample(graph), Instant.now());
      if (p instanceof WindowAssembly.Ready r) {
        return r.window();
      }
      if (p instanceof WindowAssembly.TimedOut t) {
        throw new AssertionError(t.message());
      }
      Duration wait = Duration.between(Instant.now(), polled.plus(options.sampleInterval()));
      if (!wait.isNegative()) {
        Sleeper.SYSTEM.sleep(wait); // the poll interval, as the loop waits it
      }
    }
  }
}
