package io.ds2.workloads.source;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** Serializes splits, and the enumerator's state as a list of splits not yet (re)assigned. */
final class RateSplitSerializer {
  private RateSplitSerializer() {}

  static void write(DataOutputStream out, RateSplit s) throws IOException {
    out.writeInt(s.index());
    out.writeInt(s.of());
    out.writeLong(s.epochMillis());
    out.writeLong(s.countFromMillis());
    out.writeLong(s.emitted());
  }

  static RateSplit read(DataInputStream in) throws IOException {
    return new RateSplit(in.readInt(), in.readInt(), in.readLong(), in.readLong(), in.readLong());
  }

  static final class Splits implements SimpleVersionedSerializer<RateSplit> {
    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(RateSplit split) throws IOException {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        write(out, split);
      }
      return bytes.toByteArray();
    }

    @Override
    public RateSplit deserialize(int version, byte[] serialized) throws IOException {
      try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
        return read(in);
      }
    }
  }

  static final class EnumeratorState implements SimpleVersionedSerializer<List<RateSplit>> {
    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(List<RateSplit> splits) throws IOException {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        out.writeInt(splits.size());
        for (RateSplit s : splits) {
          write(out, s);
        }
      }
      return bytes.toByteArray();
    }

    @Override
    public List<RateSplit> deserialize(int version, byte[] serialized) throws IOException {
      try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
        int n = in.readInt();
        List<RateSplit> splits = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          splits.add(read(in));
        }
        return splits;
      }
    }
  }
}
