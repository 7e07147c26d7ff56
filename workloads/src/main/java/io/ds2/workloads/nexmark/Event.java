package io.ds2.workloads.nexmark;

/**
 * A Nexmark event: a new person, a new auction or a bid (a Flink POJO: public fields, no-arg
 * constructor). Only the fields the queries read are kept; {@code extra} pads it to the benchmark's
 * average size.
 */
public class Event {
  public static final int PERSON = 0;
  public static final int AUCTION = 1;
  public static final int BID = 2;

  public int kind;

  /** Person id, auction id, or for a bid the auction it is on. */
  public long id;

  /** An auction's seller, a bid's bidder. */
  public long person;

  /** A person's state, empty otherwise. */
  public String state = "";

  /** An auction's category. */
  public int category;

  /** A bid's price in cents, an auction's initial bid. */
  public long price;

  public String extra = "";

  public Event() {}

  static Event of(int kind, long id, long person, String state, int category, long price) {
    Event e = new Event();
    e.kind = kind;
    e.id = id;
    e.person = person;
    e.state = state;
    e.category = category;
    e.price = price;
    return e;
  }

  public boolean isBid() {
    return kind == BID;
  }

  public boolean isPerson() {
    return kind == PERSON;
  }

  public boolean isAuction() {
    return kind == AUCTION;
  }
}
