package io.ds2.whatif.sim;

import io.ds2.core.forecast.Outlook;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.scaler.ScalerEvent;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The recorded demand run twice on the job learnt from the recording, from its recorded starting
 * parallelism: ds2 reacting only ({@code --forecast off}) and acting on its forecast ({@code
 * --forecast act}), every other option as given.
 */
public final class SideBySide {
  private SideBySide() {}

  /** The two runs by name: {@code reactive}, {@code predictive}. */
  public static Map<String, Outcome> run(LearnedJob job, Ds2Options options) {
    Map<String, Outcome> runs = new LinkedHashMap<>();
    runs.put(
        "reactive",
        Counterfactual.run(job, options.with(Map.of(Ds2Options.FORECAST, "off")), (t, e) -> {}));
    int[] ahead = {0};
    String[] whyNot = {null};
    Outcome predictive =
        Counterfactual.run(
            job,
            options.with(Map.of(Ds2Options.FORECAST, "act")),
            (t, e) -> {
              if (e instanceof ScalerEvent.Forecasted f) {
                if (f.outlook() instanceof Outlook.None n) {
                  whyNot[0] = n.message();
                } else {
                  ahead[0]++;
                }
              }
            });
    predictive.forecasts(ahead[0], whyNot[0]);
    runs.put("predictive", predictive);
    return runs;
  }

  private static Map<String, Integer> byName(LearnedJob job) {
    Map<String, Integer> named = new LinkedHashMap<>();
    job.graph()
        .topologicalOrder()
        .forEach(v -> named.put(v.name(), job.initial().getOrDefault(v.id(), 1)));
    return named;
  }

  /** The runs as a table, with what the job was learnt as. */
  public static String table(LearnedJob job, Map<String, Outcome> runs) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "%nSide by side: the recorded demand (%d windows, %s to %s) again on the job learnt"
                + " from the recording (a rescale stops it %.1f s), from %s:%n",
            job.demand().size(),
            job.start(),
            job.end(),
            job.downtime().toMillis() / 1000.0,
            byName(job)));
    s.append(
        String.format(
            Locale.ROOT,
            "  %-11s %14s %14s %14s %9s%n",
            "",
            "behind (s)",
            "peak backlog",
            "slot-seconds",
            "rescales"));
    runs.forEach(
        (name, o) ->
            s.append(
                String.format(
                    Locale.ROOT,
                    "  %-11s %14.0f %14.0f %14.0f %9d%n",
                    name,
                    o.behindSeconds(),
                    o.peakBacklog(),
                    o.slotSeconds(),
                    o.rescales())));
    runs.forEach(
        (name, o) ->
            o.neverForecast()
                .ifPresent(
                    why ->
                        s.append(
                            String.format(
                                Locale.ROOT,
                                "  %s had no forecast in any window, so it only reacted: %s%n",
                                name,
                                why))));
    s.append(
        "  behind: seconds in which the backlog grew by more than 1 % of the demand; the job is a"
            + " fluid of the recorded true rates (the model, policy and forecast are ds2's own).\n");
    return s.toString();
  }
}
