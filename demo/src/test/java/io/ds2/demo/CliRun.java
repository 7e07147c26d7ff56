package io.ds2.demo;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One invocation of the CLI with the demo, with its exit code and captured output. */
record CliRun(int exitCode, String out, String err) {
  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Ds2WithDemo.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new CliRun(code, out.toString(), err.toString());
  }
}
