package io.ds2.controller.cli;

/** What a command prints: a table for people, or JSON for programs. */
public enum OutputFormat {
  table,
  json
}
