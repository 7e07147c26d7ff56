package io.ds2.core.keyed;

import java.util.Arrays;
import java.util.List;

/**
 * Iterative proportional fitting of key-group shares to observations at several parallelisms (see
 * {@link KeyGroupLoad}): starting from even shares, each observed range is scaled in turn to the
 * share it was observed to need, until every observation fits. The unknowns are the cells (runs of
 * key groups that no observation's ranges split), not the key groups: every key group of a cell is
 * scaled alike, so the fit costs O(cells) per pass whatever the max parallelism.
 */
final class ProportionalFit {
  private static final int MAX_ITERATIONS = 200;
  private static final double CONVERGED = 1e-9;

  private ProportionalFit() {}

  /**
   * The share of one key group of each cell (cells starting at {@code starts}), fitted to every
   * observation (newest first); when they contradict each other, the newest ones win (they are
   * fitted last).
   */
  static double[] perGroup(int maxParallelism, int[] starts, List<SubtaskShares> observations) {
    int cells = starts.length;
    // Each subtask's range of each observation as a run of whole cells: [from[k][i], to[k][i]].
    int[][] from = new int[observations.size()][];
    int[][] to = new int[observations.size()][];
    for (int k = 0; k < observations.size(); k++) {
      int p = observations.get(k).parallelism();
      from[k] = new int[p];
      to[k] = new int[p];
      for (int i = 0; i < p; i++) {
        from[k][i] = cellIndex(starts, KeyGroups.first(i, maxParallelism, p));
        to[k][i] = cellIndex(starts, KeyGroups.last(i, maxParallelism, p));
      }
    }
    double[] size = new double[cells];
    double[] x = new double[cells]; // the share of each whole cell, from even
    for (int c = 0; c < cells; c++) {
      size[c] = (c + 1 < cells ? starts[c + 1] : maxParallelism) - starts[c];
      x[c] = size[c] / maxParallelism;
    }
    for (int round = 0; round < MAX_ITERATIONS; round++) {
      for (int k = observations.size() - 1; k >= 0; k--) {
        fit(x, size, from[k], to[k], observations.get(k));
      }
      // one observation is fitted exactly in one pass
      if (observations.size() == 1 || converged(x, from, to, observations)) {
        break;
      }
    }
    double total = 0;
    for (double share : x) {
      total += share;
    }
    for (int c = 0; c < cells; c++) {
      x[c] /= total * size[c];
    }
    return x;
  }

  /** The first key group of every cell: runs no observation's ranges split. */
  static int[] cellStarts(int m, List<SubtaskShares> observations) {
    int total = 1;
    for (SubtaskShares o : observations) {
      total += o.parallelism();
    }
    int[] starts = new int[total];
    int n = 1; // starts[0] = 0
    for (SubtaskShares o : observations) {
      for (int i = 0; i < o.parallelism(); i++) {
        starts[n++] = KeyGroups.first(i, m, o.parallelism());
      }
    }
    Arrays.sort(starts, 0, n);
    int distinct = 0;
    for (int j = 0; j < n; j++) {
      if (j == 0 || starts[j] != starts[j - 1]) {
        starts[distinct++] = starts[j];
      }
    }
    return Arrays.copyOf(starts, distinct);
  }

  static int cellIndex(int[] starts, int keyGroup) {
    int found = Arrays.binarySearch(starts, keyGroup);
    return found >= 0 ? found : -found - 2;
  }

  private static void fit(double[] x, double[] size, int[] from, int[] to, SubtaskShares o) {
    for (int i = 0; i < from.length; i++) {
      double held = 0;
      double groups = 0;
      for (int c = from[i]; c <= to[i]; c++) {
        held += x[c];
        groups += size[c];
      }
      double want = o.shares()[i];
      for (int c = from[i]; c <= to[i]; c++) {
        x[c] = held > 0 ? x[c] * want / held : want * size[c] / groups;
      }
    }
  }

  private static boolean converged(
      double[] x, int[][] from, int[][] to, List<SubtaskShares> observations) {
    for (int k = 0; k < observations.size(); k++) {
      SubtaskShares o = observations.get(k);
      for (int i = 0; i < from[k].length; i++) {
        double held = 0;
        for (int c = from[k][i]; c <= to[k][i]; c++) {
          held += x[c];
        }
        if (Math.abs(held - o.shares()[i]) * o.parallelism() >= CONVERGED) {
          return false;
        }
      }
    }
    return true;
  }
}
