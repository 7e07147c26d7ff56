package io.ds2.workloads.nexmark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class EventRecordsTest {
  private final EventRecords.Deserializer read = new EventRecords.Deserializer();

  @Test
  void everyKindOfEventComesBackAsTheGeneratorMadeIt() throws IOException {
    NexmarkGenerator generator = new NexmarkGenerator(0.1, 42);
    for (long n = 0; n < 500; n++) { // persons, auctions, bids and hot bids
      Event e = generator.event(n);
      byte[] record = EventRecords.of(e);
      Event back = read.deserialize(record);
      assertEquals(e.kind, back.kind, "event " + n);
      assertEquals(e.id, back.id, "event " + n);
      assertEquals(e.person, back.person, "event " + n);
      assertEquals(e.state, back.state, "event " + n);
      assertEquals(e.category, back.category, "event " + n);
      assertEquals(e.price, back.price, "event " + n);
      assertEquals(e.extra, back.extra, "event " + n);
      assertArrayEquals(record, EventRecords.of(back));
      assertTrue(record.length >= 90 && record.length <= 110, record.length + " bytes");
    }
  }

  @Test
  void aRecordThatIsNoEventIsRefusedInOurWords() {
    byte[] whole = EventRecords.of(new NexmarkGenerator(0, 42).event(7));
    IOException cut =
        assertThrows(IOException.class, () -> read.deserialize(Arrays.copyOf(whole, 30)));
    assertEquals("a record of 30 bytes is cut short: no whole Nexmark event", cut.getMessage());
    IOException kind =
        assertThrows(
            IOException.class,
            () -> read.deserialize(ByteBuffer.allocate(40).putInt(0, 9).array()));
    assertEquals("a record of kind 9 is no Nexmark event", kind.getMessage());
    IOException empty = assertThrows(IOException.class, () -> read.deserialize(null));
    assertEquals("an empty record is no Nexmark event", empty.getMessage());
  }
}
