package io.ds2.whatif.sim;

import java.util.Optional;

/**
 * What a controller made of the recorded demand on the simulated job: seconds behind (the backlog
 * growing by more than 1 % of the demand, the ShuffleBench/Theodolite criterion), the largest
 * backlog, slot-seconds (the widest vertex: slot sharing) and rescales applied; with a forecast, in
 * how many windows it had one, and if it never had one, why.
 */
public final class Outcome {
  /** Growth of the backlog, as a share of the demand, above which a second counts as behind. */
  public static final double BEHIND = 0.01;

  private double seconds;
  private double behindSeconds;
  private double peakBacklog;
  private double slotSeconds;
  private int rescales;
  private int forecastWindows;
  private String noForecast;

  void observe(double dt, double arriving, double read, double backlog, int slots) {
    seconds += dt;
    if (arriving > 0 && arriving - read > BEHIND * arriving) {
      behindSeconds += dt;
    }
    peakBacklog = Math.max(peakBacklog, backlog);
    slotSeconds += slots * dt;
  }

  void rescaled() {
    rescales++;
  }

  /** The windows that had a forecast, and why the last one without did not. */
  void forecasts(int windows, String lastWhyNot) {
    forecastWindows = windows;
    noForecast = lastWhyNot;
  }

  public double seconds() {
    return seconds;
  }

  public double behindSeconds() {
    return behindSeconds;
  }

  public double peakBacklog() {
    return peakBacklog;
  }

  public double slotSeconds() {
    return slotSeconds;
  }

  public int rescales() {
    return rescales;
  }

  public int forecastWindows() {
    return forecastWindows;
  }

  /** Why there was no forecast, where a forecast was asked for and no window had one. */
  public Optional<String> neverForecast() {
    return forecastWindows == 0 ? Optional.ofNullable(noForecast) : Optional.empty();
  }
}
