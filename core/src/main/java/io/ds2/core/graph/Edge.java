package io.ds2.core.graph;

import java.util.Objects;

/**
 * A directed edge of the dataflow: records flow from {@code from} to {@code to}.
 *
 * @param shipStrategy Flink's ship strategy as reported in the plan ({@code FORWARD}, {@code HASH},
 *     {@code REBALANCE}, ...); {@code HASH} means the edge is keyed
 */
public record Edge(String from, String to, String shipStrategy) {
  public Edge {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    shipStrategy = shipStrategy == null ? "UNKNOWN" : shipStrategy;
  }

  public ShipStrategy strategy() {
    return ShipStrategy.of(shipStrategy);
  }

  /** A keyed edge partitions by key group, so its consumer's parallelism affects key spread. */
  public boolean keyed() {
    return strategy() == ShipStrategy.HASH;
  }
}
