package io.ds2.render;

import java.util.List;

/** Left-aligned columns separated by two spaces; the last column is not padded. */
public final class TextTable {
  private TextTable() {}

  public static String render(List<String[]> rows) {
    int columns = rows.stream().mapToInt(r -> r.length).max().orElse(0);
    int[] width = new int[columns];
    for (String[] r : rows) {
      for (int i = 0; i < r.length; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        line.append(r[i]);
        if (i < r.length - 1) {
          line.append(" ".repeat(width[i] + 2 - r[i].length()));
        }
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
    return sb.toString();
  }
}
