package io.ds2.workloads.nexmark;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Nexmark events as Kafka records: the generator's events written whole (kind, ids, state,
 * category, price and the padding, about 100 bytes), so a job fed from Kafka deserializes what a
 * real Nexmark producer would have written instead of generating it.
 */
public final class EventRecords {
  private EventRecords() {}

  /** Event {@code e} as a record. */
  public static byte[] of(Event e) {
    byte[] state = e.state.getBytes(StandardCharsets.UTF_8);
    byte[] extra = e.extra.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(4 + 8 + 8 + 4 + state.length + 4 + 8 + 4 + extra.length)
        .putInt(e.kind)
        .putLong(e.id)
        .putLong(e.person)
        .putInt(state.length)
        .put(state)
        .putInt(e.category)
        .putLong(e.price)
        .putInt(extra.length)
        .put(extra)
        .array();
  }

  /** Reads what {@link #of} wrote. */
  public static final class Deserializer implements DeserializationSchema<Event> {
    @Override
    public Event deserialize(byte[] message) throws IOException {
      if (message == null) {
        throw new IOException("an empty record is no Nexmark event");
      }
      try {
        ByteBuffer b = ByteBuffer.wrap(message);
        Event e = new Event();
        e.kind = b.getInt();
        if (e.kind < Event.PERSON || e.kind > Event.BID) {
          throw new IOException("a record of kind " + e.kind + " is no Nexmark event");
        }
        e.id = b.getLong();
        e.person = b.getLong();
        e.state = text(b);
        e.category = b.getInt();
        e.price = b.getLong();
        e.extra = text(b);
        return e;
      } catch (BufferUnderflowException | IllegalArgumentException e) {
        throw new IOException(
            "a record of " + message.length + " bytes is cut short: no whole Nexmark event", e);
      }
    }

    private static String text(ByteBuffer b) {
      byte[] bytes = new byte[b.getInt()]; // a negative length throws: not an event
      b.get(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public boolean isEndOfStream(Event next) {
      return false;
    }

    @Override
    public TypeInformation<Event> getProducedType() {
      return TypeInformation.of(Event.class);
    }
  }
}
