package io.ds2.model.scaler;

import io.ds2.model.graph.JobGraph;

/** A job's identity and dataflow graph. */
public record JobTopology(String jobId, String jobName, JobGraph graph) {}
