package io.ds2.workloads;

import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * An operator with a controlled per-record cost and selectivity: it spends {@code costMs x (1 +
 * alpha (p - 1))} per record (alpha > 0 models sub-linear scaling) and emits {@code selectivity}
 * records per input on average.
 */
final class CostlyOperator extends RichFlatMapFunction<Long, Long> {
  private final double costMs;
  private final double selectivity;
  private final double alpha;
  private final CostDebt debt = new CostDebt();
  private long costNanos = -1;
  private double emitDebt;

  CostlyOperator(double costMs, double selectivity, double alpha) {
    this.costMs = costMs;
    this.selectivity = selectivity;
    this.alpha = alpha;
  }

  @Override
  public void flatMap(Long value, Collector<Long> out) {
    if (costNanos < 0) {
      int p = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
      costNanos = Math.round(costMs * 1e6 * (1 + alpha * (p - 1)));
    }
    debt.pay(costNanos);
    emitDebt += selectivity;
    while (emitDebt >= 1) {
      out.collect(value);
      emitDebt -= 1;
    }
  }
}
