package io.ds2.flink.dto;

import com.fasterxml.jackson.annotation.JsonProperty;

/** One job of {@code GET /jobs/overview}. */
public record JobOverview(
    String jid, String name, String state, @JsonProperty("start-time") long startTime) {
  public String describe() {
    return jid + " (" + name + ", " + state + ")";
  }
}
