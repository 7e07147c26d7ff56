package io.ds2.flink.dto;

import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code GET /overview}: cluster-wide slot counts. */
public record ClusterOverview(
    @JsonProperty("slots-total") int slotsTotal,
    @JsonProperty("slots-available") int slotsAvailable) {}
