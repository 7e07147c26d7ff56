package io.ds2.recording;

/** A recording (or imported log) cannot be read; the message names file, line and problem. */
public final class RecordingFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RecordingFormatException(String message) {
    super(message);
  }
}
