package io.ds2.whatif.sim;

/**
 * What a controller made of the recorded demand on the simulated job: seconds behind (the backlog
 * growing by more than 1 % of the demand, the ShuffleBench/Theodolite criterion), the largest
 * backlog, slot-seconds (the widest vertex: slot sharing) and rescales applied.
 */
public final class Outcome {
  /** Growth of the backlog, as a share of the demand, above which a second counts as behind. */
  public static final double BEHIND = 0.01;

  private double seconds;
  private double behindSeconds;
  private double peakBacklog;
  private double slotSeconds;
  private int rescales;

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
}
