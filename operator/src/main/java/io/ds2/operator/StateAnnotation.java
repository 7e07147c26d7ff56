package io.ds2.operator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reading back one part of a job's saved state from the JSON in its annotation: absent (nothing to
 * restore), restored, or unreadable — said with what was wrong and what ds2 does without it, then
 * ignored whole, never half-used. Each part's own class says what its JSON must look like.
 */
final class StateAnnotation {
  private static final ObjectMapper JSON = new ObjectMapper();

  private StateAnnotation() {}

  /** What an annotation held: its value, or why it could not be read. */
  sealed interface Read<T> {}

  record Restored<T>(T value) implements Read<T> {}

  record Unreadable<T>(String why) implements Read<T> {}

  /** JSON that is not what ds2 writes there; the message says what is wrong with it. */
  static final class Malformed extends Exception {
    Malformed(String what) {
      super(what, null, false, false);
    }
  }

  /** Turns an annotation's JSON into its value. */
  @FunctionalInterface
  interface Parser<T> {
    T parse(JsonNode root) throws Malformed;
  }

  /**
   * Empty when {@code key} is absent.
   *
   * @param instead what ds2 does without the value, said after what was wrong with it
   */
  static <T> Optional<Read<T>> read(
      Map<String, String> annotations, String key, Parser<T> parser, String instead) {
    String text = annotations == null ? null : annotations.get(key);
    if (text == null) {
      return Optional.empty();
    }
    String why;
    try {
      return Optional.of(new Restored<>(parser.parse(JSON.readTree(text))));
    } catch (JsonProcessingException e) {
      why = "not JSON";
    } catch (Malformed e) {
      why = e.getMessage();
    }
    return Optional.of(
        new Unreadable<>("annotation " + key + " is unreadable (" + why + "); " + instead));
  }

  /** The value read, else {@code otherwise}: an unreadable one told to {@code warn} first. */
  static <T> T restore(Optional<Read<T>> read, T otherwise, Consumer<String> warn) {
    if (read.isEmpty()) {
      return otherwise;
    }
    if (read.get() instanceof Restored<T> r) {
      return r.value();
    }
    warn.accept(((Unreadable<T>) read.get()).why());
    return otherwise;
  }
}
