package io.ds2.workloads.kafka;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * The records the benchmarks write to Kafka: a record's sequence number (8 bytes, big-endian) and
 * padding up to a realistic size. Jobs read the sequence number, as they read the rate source's, so
 * keys and costs do not depend on where the records come from.
 */
public final class SequenceRecords {
  /** Bytes a record has unless told otherwise: about what a small JSON event takes. */
  public static final int DEFAULT_BYTES = 300;

  private SequenceRecords() {}

  /** Record {@code sequence}, {@code bytes} long (at least 8). */
  public static byte[] record(long sequence, int bytes) {
    return ByteBuffer.allocate(Math.max(Long.BYTES, bytes)).putLong(0, sequence).array();
  }

  /** Reads a record's sequence number. */
  public static final class Deserializer implements DeserializationSchema<Long> {
    @Override
    public Long deserialize(byte[] message) throws IOException {
      if (message == null || message.length < Long.BYTES) {
        throw new IOException(
            "a record of " + (message == null ? 0 : message.length) + " bytes has no sequence");
      }
      return ByteBuffer.wrap(message).getLong(0);
    }

    @Override
    public boolean isEndOfStream(Long next) {
      return false;
    }

    @Override
    public TypeInformation<Long> getProducedType() {
      return Types.LONG;
    }
  }
}
