package io.ds2.recording;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;

/**
 * Appends records to a recording, one JSON line each, flushed per record so that a recorder that is
 * killed leaves every complete poll readable ({@code .gz} names are gzip-compressed, with a sync
 * flush per record). Thread-safe: the loop and a listener may write from different threads.
 *
 * <p>A strict writer ({@link #create}) throws on a failed write: the user asked for the recording.
 * A rotating one ({@link #rotating}, the operator's) never fails the loop that writes to it: it
 * starts a new file (header and topology repeated, so each file replays alone) once one holds
 * {@code maxBytes}, and stops recording at its first failure (a full disk), saying so once.
 */
public final class RecordingWriter implements AutoCloseable {
  private Path path;
  private Writer out;
  private long records;
  private long bytes;
  private final long maxBytes;
  private final Supplier<Path> next;
  private final Consumer<String> failed;
  private boolean broken;
  private Recorded.Header header;
  private Recorded.Topology topology;

  private RecordingWriter(
      Path path, Writer out, long maxBytes, Supplier<Path> next, Consumer<String> failed) {
    this.path = path;
    this.out = out;
    this.maxBytes = maxBytes;
    this.next = next;
    this.failed = failed;
  }

  /** Creates (or truncates) {@code path}; gzip if its name ends in {@code .gz}. */
  public static RecordingWriter create(Path path) throws IOException {
    return new RecordingWriter(path, open(path), Long.MAX_VALUE, null, null);
  }

  /**
   * A best-effort writer that rotates files.
   *
   * @param next the next file to write, after {@code maxBytes} (uncompressed) in one
   * @param failed told once, with what went wrong, when recording stops
   * @throws IOException if the first file cannot be created
   */
  public static RecordingWriter rotating(
      Supplier<Path> next, long maxBytes, Consumer<String> failed) throws IOException {
    Path first = next.get();
    return new RecordingWriter(first, open(first), maxBytes, next, failed);
  }

  private static Writer open(Path path) throws IOException {
    OutputStream file = Files.newOutputStream(path);
    OutputStream stream =
        path.getFileName().toString().endsWith(".gz") ? new GZIPOutputStream(file, true) : file;
    return new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8));
  }

  public synchronized Path path() {
    return path;
  }

  public synchronized void write(Recorded record) {
    if (broken) {
      return;
    }
    try {
      if (record instanceof Recorded.Header h) {
        header = h;
      } else if (record instanceof Recorded.Topology t) {
        topology = t;
      }
      if (next != null && bytes >= maxBytes && header != null) {
        rotate();
      }
      append(record);
    } catch (IOException e) {
      String what = "cannot write recording " + path + ": " + e.getMessage();
      if (failed == null) {
        throw new UncheckedIOException(what, e);
      }
      broken = true;
      failed.accept(what + "; recording stops, scaling goes on");
      try {
        out.close();
      } catch (IOException ignored) {
        // already failing: nothing more to say
      }
    }
  }

  private void append(Recorded record) throws IOException {
    String line = RecordingFormat.MAPPER.writeValueAsString(RecordingFormat.toJson(record));
    out.write(line);
    out.write('\n');
    out.flush();
    records++;
    bytes += line.length() + 1;
  }

  // Each file replays on its own: it starts with the header and the job's last topology.
  private void rotate() throws IOException {
    out.close();
    path = next.get();
    out = open(path);
    bytes = 0;
    append(header);
    if (topology != null) {
      append(topology);
    }
  }

  public synchronized long records() {
    return records;
  }

  @Override
  public synchronized void close() throws IOException {
    if (!broken) {
      out.close();
    }
  }
}
