package io.ds2.cli;

import io.ds2.commandline.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A file a command is to write, checked before any work: one usage line if it cannot be. */
final class WritableFile {
  private WritableFile() {}

  /**
   * @throws UsageException naming the flag, the file and why it cannot be written
   */
  static void check(String flag, Path file) {
    Path absolute = file.toAbsolutePath();
    Path dir = absolute.getParent();
    String why = null;
    if (Files.isDirectory(absolute)) {
      why = "it is a directory";
    } else if (dir == null || !Files.isDirectory(dir)) {
      why = "its directory " + dir + " does not exist";
    } else if (Files.exists(absolute) ? !Files.isWritable(absolute) : !Files.isWritable(dir)) {
      why = "permission denied";
    }
    if (why != null) {
      throw new UsageException(flag + ": cannot write " + file + ": " + why);
    }
  }
}
