package io.ds2.recording;

import java.io.Closeable;
import java.util.Optional;

/** A stream of recorded records: a ds2 recording, or a DS2 reference log converted on the fly. */
public interface RecordSource extends Closeable {
  Recorded.Header header();

  /**
   * The next record, or empty at the end.
   *
   * @throws RecordingFormatException on a bad line (naming file and line)
   */
  Optional<Recorded> next();

  long skippedLines();

  Optional<String> firstSkipped();

  /** The input, for messages: a path or a list of paths. */
  String describe();
}
