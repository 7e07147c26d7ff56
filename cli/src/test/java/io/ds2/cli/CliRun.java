package io.ds2.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One CLI invocation with its exit code and captured output. */
record CliRun(int exitCode, String out, String err) {
  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Ds2Cli.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new CliRun(code, out.toString(), err.toString());
  }

  /** stderr's lines, for "exactly one line" checks. */
  String[] errLines() {
    return err.strip().isEmpty() ? new String[0] : err.strip().split("\n");
  }
}
