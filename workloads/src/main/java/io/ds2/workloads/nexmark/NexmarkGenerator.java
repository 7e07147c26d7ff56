package io.ds2.workloads.nexmark;

import java.io.Serializable;
import java.util.SplittableRandom;

/**
 * Nexmark events as a pure function of the event number, so parallel generators split the number
 * space and a restored source resumes exactly. Kinds follow Nexmark's proportions person : auction
 * : bid = 1 : 3 : 46 by event number modulo 50.
 *
 * <p>Fields a query filters on cycle deterministically, so a filter's selectivity is exact and the
 * oracle closed-form: a person's state cycles through {@link #STATES} (half of them are Q3's
 * OR/ID/CA), an auction's category through 5 (one is Q3's category 10). Keys that keyed operators
 * partition by (bid auction, bidder) are drawn from {@link #KEY_SPACE} recent ids: Nexmark's
 * defaults (100 in-flight auctions, 1,000 people) hash so unevenly over 16-28 subtasks (about 7 %
 * more load on the busiest) that the optimum would depend on Flink's key-group hashing. Skew is a
 * knob instead: {@code hotShare} of the bids go to one hot auction by one hot bidder. An auction's
 * seller (the key of the person-auction joins, Q3 and Q8) is one of the last {@link #SELLERS}
 * people, so about a thousand keys are live at a time: their key groups differ by about a third,
 * which the oracle counts from these very events.
 */
public final class NexmarkGenerator implements Serializable {
  public static final int PERSONS = 1;
  public static final int AUCTIONS = 3;
  public static final int BIDS = 46;
  public static final int TOTAL = PERSONS + AUCTIONS + BIDS;
  static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
  static final int CATEGORIES = 5;
  static final int FIRST_CATEGORY = 10;
  static final long KEY_SPACE = 1_000_000;
  static final long HOT_KEY = -1;
  static final long SELLERS = 1_000;
  private static final String EXTRA = "x".repeat(60); // with the fields, ~100 bytes an event

  private final double hotShare;
  private final long seed;

  /**
   * @param hotShare share of bids on the hot auction by the hot bidder (0 for none)
   */
  public NexmarkGenerator(double hotShare, long seed) {
    if (hotShare < 0 || hotShare >= 1) {
      throw new IllegalArgumentException("hot share must be in [0, 1), was " + hotShare);
    }
    this.hotShare = hotShare;
    this.seed = seed;
  }

  /** Share of events that are bids, auctions and persons. */
  public static double share(int kind) {
    return switch (kind) {
      case Event.PERSON -> PERSONS / (double) TOTAL;
      case Event.AUCTION -> AUCTIONS / (double) TOTAL;
      default -> BIDS / (double) TOTAL;
    };
  }

  public double hotShare() {
    return hotShare;
  }

  public Event event(long n) {
    long epoch = n / TOTAL;
    int offset = (int) (n % TOTAL);
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + n);
    Event e;
    if (offset < PERSONS) {
      e = Event.of(Event.PERSON, epoch, epoch, STATES[(int) (epoch % STATES.length)], 0, 0);
    } else if (offset < PERSONS + AUCTIONS) {
      long auction = epoch * AUCTIONS + offset - PERSONS;
      // One of the last thousand people (all of them while fewer exist): clamping to person 0
      // instead made one hot seller for the first thousand epochs, after every restart.
      long seller = epoch - random.nextLong(Math.min(SELLERS, epoch + 1));
      int category = FIRST_CATEGORY + (int) (auction % CATEGORIES);
      e = Event.of(Event.AUCTION, auction, seller, "", category, 100 + random.nextLong(10_000));
    } else if (random.nextDouble() < hotShare) {
      e = Event.of(Event.BID, HOT_KEY, HOT_KEY, "", 0, 100 + random.nextLong(1_000_000));
    } else {
      long auction = epoch * AUCTIONS + random.nextLong(KEY_SPACE);
      long bidder = epoch + random.nextLong(KEY_SPACE);
      e = Event.of(Event.BID, auction, bidder, "", 0, 100 + random.nextLong(1_000_000));
    }
    e.extra = EXTRA;
    return e;
  }
}
