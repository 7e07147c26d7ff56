package io.ds2.flink.dto;

import java.util.List;

/** {@code GET /jobs/overview}. */
public record JobsOverview(List<JobOverview> jobs) {}
