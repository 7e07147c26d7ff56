package io.ds2.core.graph;

/** The dataflow graph is not a DAG of known vertices; the message says what and where. */
public final class InvalidGraphException extends IllegalArgumentException {
  public InvalidGraphException(String message) {
    super(message);
  }
}
