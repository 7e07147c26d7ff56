package io.ds2.core.scaler;

import io.ds2.core.graph.JobGraph;

/** A job's identity and dataflow graph. */
public record JobTopology(String jobId, String jobName, JobGraph graph) {}
