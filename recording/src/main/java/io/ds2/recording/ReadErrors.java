package io.ds2.recording;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * What went wrong reading a file, in ds2's words: never a library's hints, option names or
 * exception class names.
 */
public final class ReadErrors {
  private ReadErrors() {}

  /** A line that is not the JSON expected: where on the line, and what in plain words. */
  public static String json(JacksonException e) {
    if (e instanceof StreamConstraintsException) {
      return "not valid JSON: a number or text longer than a recording ever holds";
    }
    JsonLocation at = e.getLocation();
    String where = at == null || at.getColumnNr() < 1 ? "" : " at column " + at.getColumnNr();
    String m = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    if (m.startsWith("Unexpected end-of-input")) {
      return "not valid JSON: the line ends" + where + " before the object does";
    }
    return "not valid JSON" + where;
  }

  /** A file that cannot be opened, read or written. */
  public static String io(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "a part of the path is not a directory";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason().toLowerCase(java.util.Locale.ROOT);
    }
    return e.getMessage() == null || e.getMessage().isBlank()
        ? "input/output error"
        : e.getMessage();
  }
}
