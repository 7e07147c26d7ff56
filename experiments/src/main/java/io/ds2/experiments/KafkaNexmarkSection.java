package io.ds2.experiments;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The six Nexmark queries of the autoscaling papers fed from Kafka on a cluster at Flink's
 * defaults, 15 minutes each: long enough for the Flink autoscaler at its documented example to act
 * twice, and for ds2 to settle and be judged on the settled job.
 */
final class KafkaNexmarkSection {
  static final String NOTES = "";

  private KafkaNexmarkSection() {}

  static void render(StringBuilder md, Path dir) throws IOException {
    KafkaDefaultFetchSection.section(
        md,
        dir,
        """
        ## Nexmark on Kafka at Flink's defaults, 15 minutes a query

        Q1, Q2, Q3, Q5, Q8 and Q11 as DataStream jobs chained as Flink chains them (the kinds of
        event a query reads filtered in its source's chain, the sink chained to its main
        operator), the Nexmark generator's events written to a topic of 12 partitions and read
        by a checkpointed KafkaSource at Kafka's default fetch, on the flink-defaults cluster (10
        s metric refresh, default network buffers; 2 x 16 slots), each from 2 source and 8 main
        instances at the DS2 paper's loads (its Table 4 optima 16, 14, 20, 16, 10 and 28, each load half an
        instance below the integer), for 15 minutes (`bin/ds2-bench suite --feed kafka --cluster
        flink-defaults --scenarios nexmark-q1-15m,nexmark-q2-15m,nexmark-q3-15m,nexmark-q5-15m,nexmark-q8-15m,nexmark-q11-15m
        --controllers CONTROLLER --repeats 1 --out experiments/results/kafka-nexmark-15m`). The
        oracles count the key groups each subtask owns (Q3, Q5, Q8 and Q11 are keyed) and the
        partitions each source subtask reads. One run of each: no spread. Columns as in the
        headline.

        """,
        NOTES);
  }
}
