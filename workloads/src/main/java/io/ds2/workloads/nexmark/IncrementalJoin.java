package io.ds2.workloads.nexmark;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Q3's stateful incremental join on person id = seller: a person is kept once seen; auctions that
 * arrive before their seller wait in state. Emits each auction with its seller's state.
 */
final class IncrementalJoin extends KeyedProcessFunction<Long, Event, Event> {
  private final CostlyFunctions.Cost cost;
  private transient ValueState<String> sellerState;
  private transient ListState<Event> waiting;

  IncrementalJoin(double costMs) {
    this.cost = new CostlyFunctions.Cost(costMs);
  }

  @Override
  public void open(OpenContext context) {
    sellerState = getRuntimeContext().getState(new ValueStateDescriptor<>("seller", String.class));
    waiting = getRuntimeContext().getListState(new ListStateDescriptor<>("waiting", Event.class));
  }

  @Override
  public void processElement(Event e, Context ctx, Collector<Event> out) throws Exception {
    cost.pay();
    if (e.isPerson()) {
      sellerState.update(e.state);
      for (Event auction : waiting.get()) {
        auction.state = e.state;
        out.collect(auction);
      }
      waiting.clear();
    } else if (sellerState.value() != null) {
      e.state = sellerState.value();
      out.collect(e);
    } else {
      waiting.add(e);
    }
  }
}
