package io.ds2.cli;

/** What a command prints: a table for people, or JSON for programs. */
public enum OutputFormat {
  table,
  json
}
