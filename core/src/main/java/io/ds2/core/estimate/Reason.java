package io.ds2.core.estimate;

/**
 * One reason attached to a vertex estimate: a typed code for programs and a sentence for people.
 */
public record Reason(ReasonCode code, String message) {}
