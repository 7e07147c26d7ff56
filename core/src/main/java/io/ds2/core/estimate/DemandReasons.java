package io.ds2.core.estimate;

import io.ds2.core.graph.Vertex;
import io.ds2.core.window.VertexObservation;
import java.util.List;
import java.util.Locale;

/** Why a source's demand is not what its backlog gauge alone shows, in its own reason. */
final class DemandReasons {
  private DemandReasons() {}

  static void add(Vertex v, VertexObservation obs, SourceDemand d, List<Reason> reasons) {
    if (d.basis() == SourceDemand.Basis.RECORD_AGE) {
      obs.recordAge()
          .ifPresent(
              a ->
                  reasons.add(
                      new Reason(
                          ReasonCode.SOURCE_ARRIVAL_FROM_RECORD_AGE,
                          String.format(
                              Locale.ROOT,
                              "%s never waited for records, and those it emitted grew older by up"
                                  + " to %.2f s a second since it was at its heads %.0f s before:"
                                  + " %s arrive where it read %s, more than its lag shows (%s)%s",
                              chain(v),
                              a.growth(),
                              a.sinceHeadsSeconds(),
                              RateModel.rate(a.arrivalRate()),
                              RateModel.rate(a.readRate()),
                              RateModel.rate(obs.backlog().map(b -> b.arrivalRate()).orElse(0.0)),
                              a.capped() ? "; taken as at most twice what it read" : ""))));
    }
    if (d.basis() == SourceDemand.Basis.BACKLOG_HIDDEN) {
      reasons.add(
          new Reason(
              ReasonCode.SOURCE_LAG_HIDDEN,
              String.format(
                  Locale.ROOT,
                  "%s never waited for records (busy %.0f %%, back-pressured %.0f %%) and its"
                      + " lag stood still while it read, then jumped: its Kafka consumer holds"
                      + " fetched records the lag does not count"
                      + " (max.partition.fetch.bytes, 1 MiB by default, a partition), so what"
                      + " arrives beyond the %s it read is not known; taken as %s, so that the"
                      + " job at its target utilization carries twice what it read: a bounded step"
                      + " (a smaller max.partition.fetch.bytes lets the lag show it; --source-rate"
                      + " states it)",
                  chain(v),
                  100 * obs.busyRatio().orElse(1),
                  100 * obs.backPressuredRatio().orElse(0),
                  RateModel.rate(d.observedRate()),
                  RateModel.rate(d.targetRate()))));
    }
  }

  private static String chain(Vertex v) {
    return SourceEstimate.chain(v);
  }
}
