package io.ds2.core.forecast;

import java.util.Arrays;
import org.apache.commons.math3.analysis.MultivariateFunction;
import org.apache.commons.math3.exception.TooManyEvaluationsException;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.NelderMeadSimplex;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.SimplexOptimizer;

/**
 * Additive Holt-Winters (triple exponential smoothing): level, trend and a seasonal profile of
 * {@code period} steps, its three smoothing weights chosen by least squares of the one-step-ahead
 * errors (commons-math's Nelder-Mead, each weight kept in (0, 1)). Written here because no
 * maintained, permissively licensed Java library offers it (commons-math has the optimizer, not the
 * model; Smile is GPL).
 *
 * <p>Initial state as Hyndman and Athanasopoulos (FPP, 8.3) give it: the level the mean of the
 * first period, the trend the mean step between the first two periods (0 with one), the seasonal
 * profile the first period less its mean.
 *
 * <p>With {@link Trend#NONE} the model has no trend (ETS(A,N,A)): level and season only, two
 * weights. A forecaster compares both forms on held-out data ({@link SeasonalForecaster}): a trend
 * weight chosen on little data can follow a ramp inside the day and carry it a whole period ahead.
 */
public final class HoltWinters {
  /** Whether the model has a trend. */
  public enum Trend {
    /** Level and season only: the trend is 0 and never learnt. */
    NONE,
    /** An additive trend, smoothed by the second weight. */
    ADDITIVE
  }

  private final int period;
  private final Trend form;
  private final double alpha;
  private final double beta;
  private final double gamma;
  private final double level;
  private final double trend;
  // seasonal[i] is the profile at the i-th step after the last observation's (cyclic).
  private final double[] seasonal;
  private final double rmse;

  private HoltWinters(
      int period,
      Trend form,
      double alpha,
      double beta,
      double gamma,
      double level,
      double trend,
      double[] seasonal,
      double rmse) {
    this.period = period;
    this.form = form;
    this.alpha = alpha;
    this.beta = beta;
    this.gamma = gamma;
    this.level = level;
    this.trend = trend;
    this.seasonal = seasonal;
    this.rmse = rmse;
  }

  /**
   * Fits {@code y} (no gaps) with a season of {@code period} steps, of the given form: without a
   * trend, only alpha and gamma are chosen (beta is 0). With less than two periods the initial
   * trend is 0 (there is no second period to take it from).
   *
   * @throws IllegalArgumentException with no more than one period of data
   */
  public static HoltWinters fit(double[] y, int period, Trend form) {
    if (period < 2 || y.length <= period) {
      throw new IllegalArgumentException(
          "Holt-Winters needs more than a period of " + period + " steps, has " + y.length);
    }
    // Nelder-Mead over the weights' logits, so each stays in (0, 1) without bounds (BOBYQA, with
    // bounds, fails on the flat objective of a steady series).
    boolean trended = form == Trend.ADDITIVE;
    // The searched point: alpha, beta, gamma's logits; without a trend, alpha's and gamma's.
    java.util.function.Function<double[], double[]> toWeights =
        x ->
            trended
                ? new double[] {weight(x[0]), weight(x[1]), weight(x[2])}
                : new double[] {weight(x[0]), 0, weight(x[1])};
    MultivariateFunction sse =
        x -> {
          double[] w = toWeights.apply(x);
          return run(y, period, form, w[0], w[1], w[2]).sse;
        };
    double[] start =
        trended
            ? new double[] {logit(0.3), logit(0.05), logit(0.2)}
            : new double[] {logit(0.3), logit(0.2)};
    double[] best = start;
    try {
      best =
          new SimplexOptimizer(1e-9, 1e-9)
              .optimize(
                  new MaxEval(3000),
                  new ObjectiveFunction(sse),
                  GoalType.MINIMIZE,
                  new InitialGuess(start),
                  new NelderMeadSimplex(start.length, 1.0))
              .getPoint();
    } catch (TooManyEvaluationsException e) {
      // Keep the starting weights: a fit that does not settle is no better than them.
    }
    double[] w = toWeights.apply(best);
    return run(y, period, form, w[0], w[1], w[2]).model(period, form, w);
  }

  /**
   * Runs the recursions over {@code y} with weights chosen before (by {@link #fit} on an earlier
   * series): the state after the last observation, in one pass. Choosing the weights is what costs
   * (a search of thousands of passes); they change slowly as a series grows by a step.
   *
   * @param form with a trend or without (then beta is not used)
   * @param weights alpha, beta, gamma as {@link #weights()} gave them
   */
  public static HoltWinters withWeights(double[] y, int period, Trend form, double[] weights) {
    if (period < 2 || y.length <= period) {
      throw new IllegalArgumentException(
          "Holt-Winters needs more than a period of " + period + " steps, has " + y.length);
    }
    double beta = form == Trend.ADDITIVE ? weights[1] : 0;
    return run(y, period, form, weights[0], beta, weights[2])
        .model(period, form, new double[] {weights[0], beta, weights[2]});
  }

  /** Whether the model has a trend. */
  public Trend form() {
    return form;
  }

  /** The smoothing weights: alpha, beta, gamma. */
  public double[] weights() {
    return new double[] {alpha, beta, gamma};
  }

  private static double weight(double logit) {
    return 1 / (1 + Math.exp(-logit));
  }

  private static double logit(double w) {
    return Math.log(w / (1 - w));
  }

  /** The forecast {@code h} steps after the last observation (h >= 1). */
  public double forecast(int h) {
    return level + h * trend + seasonal[(h - 1) % period];
  }

  /** Root mean square of the one-step-ahead errors over the fitted data. */
  public double rmse() {
    return rmse;
  }

  public double alpha() {
    return alpha;
  }

  public double beta() {
    return beta;
  }

  public double gamma() {
    return gamma;
  }

  /** One pass of the recursions; its state after the last observation. */
  private static State run(
      double[] y, int period, Trend form, double alpha, double beta, double gamma) {
    double l = 0;
    for (int i = 0; i < period; i++) {
      l += y[i];
    }
    l /= period;
    double b = 0;
    if (form == Trend.ADDITIVE && y.length >= 2 * period) {
      double next = 0;
      for (int i = period; i < 2 * period; i++) {
        next += y[i];
      }
      b = (next / period - l) / period;
    }
    double[] s = new double[period];
    for (int i = 0; i < period; i++) {
      s[i] = y[i] - l;
    }
    double sse = 0;
    for (int t = period; t < y.length; t++) {
      int k = t % period;
      double predicted = l + b + s[k];
      double e = y[t] - predicted;
      sse += e * e;
      double lastLevel = l;
      l = alpha * (y[t] - s[k]) + (1 - alpha) * (l + b);
      b = beta * (l - lastLevel) + (1 - beta) * b;
      s[k] = gamma * (y[t] - l) + (1 - gamma) * s[k];
    }
    // Rotate the profile so index 0 is the step after the last observation.
    double[] ahead = new double[period];
    for (int h = 0; h < period; h++) {
      ahead[h] = s[(y.length + h) % period];
    }
    return new State(l, b, ahead, sse, y.length - period);
  }

  private record State(double level, double trend, double[] seasonal, double sse, int n) {
    HoltWinters model(int period, Trend form, double[] w) {
      return new HoltWinters(
          period, form, w[0], w[1], w[2], level, trend, seasonal, Math.sqrt(sse / Math.max(1, n)));
    }
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "HoltWinters(period %d, %s, alpha %.3f, beta %.3f, gamma %.3f, rmse %.3g, seasonal %s)",
        period,
        form,
        alpha,
        beta,
        gamma,
        rmse,
        Arrays.toString(Arrays.copyOf(seasonal, Math.min(4, period))));
  }
}
