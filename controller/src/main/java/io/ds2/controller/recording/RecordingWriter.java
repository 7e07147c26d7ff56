package io.ds2.controller.recording;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Appends records to a recording, one JSON line each, flushed per record so that a recorder that is
 * killed leaves every complete poll readable ({@code .gz} names are gzip-compressed, with a sync
 * flush per record). Thread-safe: the loop and a listener may write from different threads.
 */
public final class RecordingWriter implements AutoCloseable {
  private final Path path;
  private final Writer out;
  private long records;

  private RecordingWriter(Path path, Writer out) {
    this.path = path;
    this.out = out;
  }

  /** Creates (or truncates) {@code path}; gzip if its name ends in {@code .gz}. */
  public static RecordingWriter create(Path path) throws IOException {
    OutputStream file = Files.newOutputStream(path);
    OutputStream stream =
        path.getFileName().toString().endsWith(".gz") ? new GZIPOutputStream(file, true) : file;
    return new RecordingWriter(
        path, new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8)));
  }

  public Path path() {
    return path;
  }

  public synchronized void write(Recorded record) {
    try {
      out.write(RecordingFormat.MAPPER.writeValueAsString(RecordingFormat.toJson(record)));
      out.write('\n');
      out.flush();
      records++;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write recording " + path + ": " + e.getMessage(), e);
    }
  }

  public synchronized long records() {
    return records;
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }
}
