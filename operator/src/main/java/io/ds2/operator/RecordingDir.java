package io.ds2.operator;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's recordings directory: one {@code namespace_name_time.jsonl.gz} per loop start or
 * rotation, and at most {@code keep} files per job, the oldest deleted as a new one starts, so a
 * controller that runs for months fills no disk.
 *
 * @param dir where recordings go
 * @param maxFileBytes when a file is rotated (uncompressed bytes written)
 * @param keep how many files each job keeps
 */
public record RecordingDir(Path dir, long maxFileBytes, int keep) {
  private static final Logger LOG = LoggerFactory.getLogger(RecordingDir.class);
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

  public RecordingDir {
    if (maxFileBytes < 1 || keep < 1) {
      throw new IllegalArgumentException("a recording file holds at least a byte; keep >= 1");
    }
  }

  /** The next file of a job, after dropping its oldest beyond {@code keep - 1}. */
  Path next(String namespace, String name, Clock clock) {
    String prefix = namespace + "_" + name + "_";
    prune(prefix);
    return dir.resolve(prefix + STAMP.format(clock.instant()) + ".jsonl.gz");
  }

  private void prune(String prefix) {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, prefix + "*.jsonl.gz")) {
      s.forEach(files::add);
    } catch (IOException e) {
      LOG.warn("cannot list recordings in {}: {}", dir, e.getMessage());
      return;
    }
    files.sort(null); // the time stamp in the name sorts them oldest first
    for (int i = 0; i < files.size() - (keep - 1); i++) {
      try {
        Files.deleteIfExists(files.get(i));
      } catch (IOException e) {
        LOG.warn("cannot delete old recording {}: {}", files.get(i), e.getMessage());
      }
    }
  }
}
