package io.ds2.model.estimate;

/**
 * One reason attached to a vertex estimate: a typed code for programs and a sentence for people.
 */
public record Reason(ReasonCode code, String message) {}
