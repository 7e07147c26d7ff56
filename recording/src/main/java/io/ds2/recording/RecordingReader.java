package io.ds2.recording;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Streams a recording line by line (plain or gzip, told apart by content): memory stays flat
 * however long the file is. A bad line ends reading with a {@link RecordingFormatException} naming
 * {@code file:line} and the problem, or, with {@code skipBadLines}, is counted and skipped.
 */
public final class RecordingReader implements RecordSource {
  private static final int GZIP_MAGIC = 0x8b1f;

  private final Path path;
  private final BufferedReader in;
  private final boolean skipBadLines;
  private final Recorded.Header header;
  private long line;
  private long skipped;
  private String firstSkipped;
  private Instant lastSampleTime = Instant.MIN;

  private RecordingReader(Path path, BufferedReader in, boolean skipBadLines) {
    this.path = path;
    this.in = in;
    this.skipBadLines = skipBadLines;
    this.header = readHeader();
  }

  /**
   * @throws RecordingFormatException if the file cannot be opened or has no valid header
   */
  public static RecordingReader open(Path path, boolean skipBadLines) {
    try {
      InputStream raw = new BufferedInputStream(Files.newInputStream(path));
      raw.mark(2);
      int magic = raw.read() | (raw.read() << 8);
      raw.reset();
      InputStream stream = magic == GZIP_MAGIC ? new GZIPInputStream(raw) : raw;
      BufferedReader reader =
          new BufferedReader(
              new InputStreamReader(
                  stream,
                  StandardCharsets.UTF_8
                      .newDecoder()
                      .onMalformedInput(CodingErrorAction.REPLACE)
                      .onUnmappableCharacter(CodingErrorAction.REPLACE)));
      return new RecordingReader(path, reader, skipBadLines);
    } catch (NoSuchFileException e) {
      throw new RecordingFormatException(path + ": no such file");
    } catch (IOException e) {
      throw new RecordingFormatException(path + ": cannot read: " + ReadErrors.io(e));
    }
  }

  @Override
  public Recorded.Header header() {
    return header;
  }

  /** The next record after the header, or empty at the end of the file. */
  @Override
  public Optional<Recorded> next() {
    while (true) {
      Optional<String> text = readLine();
      if (text.isEmpty()) {
        return Optional.empty();
      }
      if (text.get().isBlank()) {
        continue;
      }
      try {
        Optional<Recorded> r = parse(text.get());
        if (r.isPresent()) {
          return r;
        }
      } catch (RecordingFormatException e) {
        if (!skipBadLines) {
          throw e;
        }
        skipped++;
        firstSkipped = firstSkipped == null ? e.getMessage() : firstSkipped;
      }
    }
  }

  /** Lines skipped as bad so far (only with skipBadLines). */
  @Override
  public long skippedLines() {
    return skipped;
  }

  /** The error of the first skipped line, if any. */
  @Override
  public Optional<String> firstSkipped() {
    return Optional.ofNullable(firstSkipped);
  }

  @Override
  public String describe() {
    return path.toString();
  }

  private Recorded.Header readHeader() {
    Optional<String> first = readLine();
    while (first.isPresent() && first.get().isBlank()) {
      first = readLine();
    }
    if (first.isEmpty()) {
      throw new RecordingFormatException(path + ": empty file, expected a ds2 recording header");
    }
    JsonNode n = json(first.get());
    if (!"header".equals(RecordingFormat.typeOf(n))) {
      throw error("the first line must be the header (type 'header'), is not");
    }
    try {
      return RecordParser.header(n);
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  private Optional<Recorded> parse(String text) {
    JsonNode n = json(text);
    try {
      Optional<Recorded> r =
          switch (RecordingFormat.typeOf(n)) {
            case "topology" -> Optional.of(RecordParser.topology(n));
            case "sample" -> Optional.of(RecordParser.sample(n));
            case "event" -> Optional.of(RecordParser.event(n));
            case "header" -> throw error("a second header");
            case "" -> throw error("no 'type' field");
            default -> Optional.empty(); // a record type of a later version 1 writer: ignored
          };
      if (r.isPresent() && r.get() instanceof Recorded.Sample s) {
        Instant t = s.sample().time();
        if (t.isBefore(lastSampleTime)) {
          throw error("sample time " + t + " is before the previous sample's " + lastSampleTime);
        }
        lastSampleTime = t;
      }
      return r;
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  private JsonNode json(String text) {
    try {
      JsonNode n = RecordingFormat.MAPPER.readTree(text);
      if (n == null || !n.isObject()) {
        throw error("not a JSON object");
      }
      return n;
    } catch (JacksonException e) {
      throw error(ReadErrors.json(e));
    }
  }

  private Optional<String> readLine() {
    try {
      String s = in.readLine();
      if (s != null) {
        line++;
      }
      return Optional.ofNullable(s);
    } catch (EOFException | ZipException e) {
      // A gzip file cut short (recorder killed): what was read is complete; the rest is lost.
      if (skipBadLines) {
        skipped++;
        firstSkipped =
            firstSkipped == null
                ? path + ": compressed data ends early after line " + line
                : firstSkipped;
        return Optional.empty();
      }
      throw new RecordingFormatException(
          path + ":" + (line + 1) + ": compressed data ends early (a cut or damaged file)");
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": cannot read: " + ReadErrors.io(e), e);
    }
  }

  private RecordingFormatException error(String message) {
    return new RecordingFormatException(path + ":" + line + ": " + message);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
