package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.window.WindowProblem;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class StderrProgressTest {
  @Test
  void onATerminalEachDistinctProblemIsNotedOnce() {
    StringWriter text = new StringWriter();
    StderrProgress p = new StderrProgress(new PrintWriter(text), true);
    p.on(null, new ScalerEvent.SamplesDropped(WindowProblem.METRIC_MISSING, "busy NaN at t1"));
    p.on(null, new ScalerEvent.SamplesDropped(WindowProblem.METRIC_MISSING, "busy NaN at t2"));
    p.on(null, new ScalerEvent.SamplesDropped(WindowProblem.RESTARTED, "job restarted at t3"));
    p.on(
        null,
        new ScalerEvent.Waiting(
            Duration.ofSeconds(3), Duration.ofSeconds(30), "window has 3 s of 30 s"));
    p.done();
    assertEquals(
        "note: starting the window again: busy NaN at t1\n"
            + "note: starting the window again: job restarted at t3\n"
            + "\rcollecting metrics: 3/30 s (window has 3 s of 30 s)\u001b[K\r\u001b[K",
        text.toString().replace(System.lineSeparator(), "\n"));
  }

  @Test
  void withoutATerminalNothingIsPrinted() {
    StringWriter text = new StringWriter();
    StderrProgress p = new StderrProgress(new PrintWriter(text), false);
    p.on(null, new ScalerEvent.SamplesDropped(WindowProblem.RESTARTED, "job restarted"));
    p.on(null, new ScalerEvent.Waiting(Duration.ofSeconds(3), Duration.ofSeconds(30), "filling"));
    p.done();
    assertEquals("", text.toString());
  }
}
