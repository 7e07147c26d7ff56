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
 */
public final class HoltWinters {
  private final int period;
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
      double alpha,
      double beta,
      double gamma,
      double level,
      double trend,
      double[] seasonal,
      double rmse) {
    this.period = period;
    this.alpha = alpha;
    this.beta = beta;
    this.gamma = gamma;
    this.level = level;
    this.trend = trend;
    this.seasonal = seasonal;
    this.rmse = rmse;
  }

  /**
   * Fits {@code y} (no gaps) with a season of {@code period} steps. With less than two periods the
   * initial trend is 0 (there is no second period to take it from).
   *
   * @throws IllegalArgumentException with no more than one period of data
   */
  public static HoltWinters fit(double[] y, int period) {
    if (period < 2 || y.length <= period) {
      throw new IllegalArgumentException(
          "Holt-Winters needs more than a period of " + period + " steps, has " + y.length);
    }
    // Nelder-Mead over the weights' logits, so each stays in (0, 1) without bounds (BOBYQA, with
    // bounds, fails on the flat objective of a steady series).
    MultivariateFunction sse = x -> run(y, period, weight(x[0]), weight(x[1]), weight(x[2])).sse;
    double[] start = {logit(0.3), logit(0.05), logit(0.2)};
    double[] best = start;
    try {
      best =
          new SimplexOptimizer(1e-9, 1e-9)
              .optimize(
                  new MaxEval(3000),
                  new ObjectiveFunction(sse),
                  GoalType.MINIMIZE,
                  new InitialGuess(start),
                  new NelderMeadSimplex(3, 1.0))
              .getPoint();
    } catch (TooManyEvaluationsException e) {
      // Keep the starting weights: a fit that does not settle is no better than them.
    }
    double[] w = {weight(best[0]), weight(best[1]), weight(best[2])};
    return run(y, period, w[0], w[1], w[2]).model(period, w);
  }

  /**
   * Runs the recursions over {@code y} with weights chosen before (by {@link #fit} on an earlier
   * series): the state after the last observation, in one pass. Choosing the weights is what costs
   * (a search of thousands of passes); they change slowly as a series grows by a step.
   *
   * @param weights alpha, beta, gamma as {@link #weights()} gave them
   */
  public static HoltWinters withWeights(double[] y, int period, double[] weights) {
    if (period < 2 || y.length <= period) {
      throw new IllegalArgumentException(
          "Holt-Winters needs more than a period of " + period + " steps, has " + y.length);
    }
    return run(y, period, weights[0], weights[1], weights[2]).model(period, weights.clone());
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
  private static State run(double[] y, int period, double alpha, double beta, double gamma) {
    double l = 0;
    for (int i = 0; i < period; i++) {
      l += y[i];
    }
    l /= period;
    double b = 0;
    if (y.length >= 2 * period) {
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
    HoltWinters model(int period, double[] w) {
      return new HoltWinters(
          period, w[0], w[1], w[2], level, trend, seasonal, Math.sqrt(sse / Math.max(1, n)));
    }
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "HoltWinters(period %d, alpha %.3f, beta %.3f, gamma %.3f, rmse %.3g, seasonal %s)",
        period,
        alpha,
        beta,
        gamma,
        rmse,
        Arrays.toString(Arrays.copyOf(seasonal, Math.min(4, period))));
  }
}
