package io.ds2.core.forecast;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/** What the forecast says at a decision: the sources' demand over the lead time, or why none. */
public sealed interface Outlook {
  /**
   * @param lead how far ahead it looks: the job's rescale time, a warm-up and the windows a change
   *     must persist (activation)
   * @param measured each source's arrival rate in this window (records/s), by vertex name
   * @param peak each source's highest forecast arrival rate within the lead time, by vertex name
   * @param error the larger of its errors over the held-out period and the latest steps
   * @param weekly the sources forecast by their weekly pattern (the others by their daily one)
   */
  record Ahead(
      Duration lead,
      Map<String, Double> measured,
      Map<String, Double> peak,
      double error,
      Set<String> weekly)
      implements Outlook {
    public Ahead {
      measured = Map.copyOf(measured);
      peak = Map.copyOf(peak);
      weekly = Set.copyOf(weekly);
    }
  }

  /**
   * No forecast: ds2 is reactive.
   *
   * @param source the source it failed for
   */
  record None(SeasonalForecaster.Reason reason, String source, String message) implements Outlook {}
}
