package io.ds2.cli;

import io.ds2.core.policy.Decision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.window.WindowProblem;
import io.ds2.loop.EventSink;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * Shows window progress on one rewritten stderr line, and why collection restarted (once per
 * distinct problem), when a person is watching a terminal. Otherwise stderr stays quiet: a failure
 * ends in one error line that already names the last problem.
 */
final class StderrProgress implements EventSink {
  private final PrintWriter err;
  private final boolean terminal;
  private boolean lineOpen;
  private WindowProblem lastNoted;

  StderrProgress(PrintWriter err) {
    this(err, System.console() != null);
  }

  StderrProgress(PrintWriter err, boolean terminal) {
    this.err = err;
    this.terminal = terminal;
  }

  private void decided(JobTopology topology, Decision decision, Mode mode) {}

  private void waiting(Duration collected, Duration wanted, String status) {
    if (terminal) {
      err.printf(
          "\rcollecting metrics: %d/%d s (%s)\u001b[K",
          collected.toSeconds(), wanted.toSeconds(), status);
      err.flush();
      lineOpen = true;
    }
  }

  private void samplesDropped(WindowProblem problem, String detail) {
    if (!terminal || problem == lastNoted) {
      return;
    }
    lastNoted = problem;
    if (lineOpen) {
      err.println();
      lineOpen = false;
    }
    err.println("note: starting the window again: " + detail);
    err.flush();
  }

  /** Rewrites the progress line with {@code text} (on a terminal only). */
  void status(String text) {
    if (terminal) {
      err.print("\r" + text + "\u001b[K");
      err.flush();
      lineOpen = true;
    }
  }

  /** A line worth keeping (a failure, an end), on a terminal or not. */
  void note(String message) {
    if (lineOpen) {
      err.println();
      lineOpen = false;
    }
    err.println("note: " + message);
    err.flush();
  }

  /** Clears the progress line once a window is complete. */
  void done() {
    lastNoted = null;
    if (lineOpen) {
      err.print("\r\u001b[K");
      err.flush();
      lineOpen = false;
    }
  }

  @Override
  public void on(JobTopology topology, ScalerEvent event) {
    if (event instanceof ScalerEvent.Decided d) {
      decided(topology, d.decision(), d.mode());
    } else if (event instanceof ScalerEvent.Waiting w) {
      waiting(w.collected(), w.wanted(), w.status());
    } else if (event instanceof ScalerEvent.SamplesDropped s) {
      samplesDropped(s.problem(), s.detail());
    }
  }
}
