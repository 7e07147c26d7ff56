package io.ds2.core.options;

/**
 * One documented option: its name (also the CLI flag {@code --name} and the annotation suffix), its
 * default as the user would type it, and what it means.
 */
public record OptionSpec(String name, String defaultValue, String meaning) {}
