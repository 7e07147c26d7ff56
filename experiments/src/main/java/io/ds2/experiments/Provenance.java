package io.ds2.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * When, and on which commit, a section's data was measured, read from the data itself: the
 * recordings' headers ({@code createdAt}, the {@code commit} option the bench stamps) or the
 * benchmark files' {@code measuredAt} and {@code commit}. Every section ends with this line, so
 * that no figure on the page stands without its date and code, whatever its notes say.
 */
final class Provenance {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Said of data written before the benchmarks stamped their commit. */
  static final String NO_COMMIT = "no commit recorded";

  private Provenance() {}

  /**
   * One run's time (ISO-8601, UTC) and commit, each {@code null} when the data does not name it.
   */
  record Run(String at, String commit) {
    String date() {
      return at == null || at.length() < 10 ? null : at.substring(0, 10);
    }

    /** The commit as the notes write it: 7 hex digits, and "-dirty" when the tree was. */
    String shortCommit() {
      if (commit == null || commit.equals("unknown")) {
        return NO_COMMIT;
      }
      boolean dirty = commit.endsWith("-dirty");
      String hash = dirty ? commit.substring(0, commit.length() - 6) : commit;
      return (hash.length() > 7 ? hash.substring(0, 7) : hash) + (dirty ? "-dirty" : "");
    }
  }

  /** The line for a directory of recordings ({@code *.jsonl.gz}); empty when there are none. */
  static String recordings(Path dir, String shownAs) throws IOException {
    if (!Files.isDirectory(dir)) {
      return "";
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".jsonl.gz")).sorted().toList();
    }
    List<Run> runs = new ArrayList<>();
    int unreadable = 0;
    for (Path f : files) {
      Run r = header(f);
      if (r == null) {
        unreadable++;
      } else {
        runs.add(r);
      }
    }
    if (runs.isEmpty() && unreadable == 0) {
      return "";
    }
    String what = runs.size() == 1 ? "1 recording" : runs.size() + " recordings";
    return line("`" + shownAs + "`: " + what, runs)
        + (unreadable == 0 ? "" : " " + unreadable + " more could not be read.")
        + "\n\n";
  }

  /** The line for benchmark files {@code base.json}, {@code base-r2.json}, ... in {@code dir}. */
  static String benchmark(Path dir, String base) throws IOException {
    List<Run> runs = new ArrayList<>();
    for (JsonNode root : Repeats.read(dir, base)) {
      runs.add(
          new Run(
              root.hasNonNull("measuredAt") ? root.get("measuredAt").asText() : null,
              root.hasNonNull("commit") ? root.get("commit").asText() : null));
    }
    if (runs.isEmpty()) {
      return "";
    }
    String what = runs.size() == 1 ? "1 run" : runs.size() + " runs";
    return line("`" + base + "`: " + what, runs) + "\n\n";
  }

  /** "what, made D1 to D2, at C1 (n), C2 (m); k with no commit recorded." */
  static String line(String what, List<Run> runs) {
    TreeSet<String> dates = new TreeSet<>();
    // Commits in the order of their first run, so that the line reads as the data was made.
    Map<String, String> first = new TreeMap<>();
    Map<String, Integer> count = new TreeMap<>();
    for (Run r : runs) {
      if (r.date() != null) {
        dates.add(r.date());
      }
      String c = r.shortCommit();
      count.merge(c, 1, Integer::sum);
      first.merge(c, r.at() == null ? "?" : r.at(), (a, b) -> a.compareTo(b) <= 0 ? a : b);
    }
    StringBuilder s = new StringBuilder(what);
    if (!dates.isEmpty()) {
      s.append(", made ").append(dates.first());
      if (!dates.first().equals(dates.last())) {
        s.append(" to ").append(dates.last());
      }
    }
    int unnamed = count.getOrDefault(NO_COMMIT, 0);
    List<String> commits = new ArrayList<>(count.keySet());
    commits.remove(NO_COMMIT);
    commits.sort((a, b) -> first.get(a).compareTo(first.get(b)));
    List<String> parts = new ArrayList<>();
    for (String c : commits) {
      parts.add(runs.size() == 1 ? c : c + " (" + count.get(c) + ")");
    }
    if (parts.isEmpty()) {
      s.append(", ").append(NO_COMMIT);
    } else {
      s.append(", at ").append(String.join(", ", parts));
      if (unnamed > 0) {
        s.append("; ").append(unnamed).append(" with ").append(NO_COMMIT);
      }
    }
    s.append('.');
    return s.toString();
  }

  /** A recording's date and commit from its first line; {@code null} when it cannot be read. */
  private static Run header(Path file) {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
      String first = in.readLine();
      if (first == null) {
        return null;
      }
      JsonNode h = JSON.readTree(first);
      JsonNode at = h.path("createdAt");
      JsonNode commit = h.path("config").path("options").path("commit");
      return new Run(
          at.isTextual() ? at.asText() : null, commit.isTextual() ? commit.asText() : null);
    } catch (IOException | RuntimeException e) {
      // A recording still being written or cut short: counted, not guessed at.
      return null;
    }
  }
}
