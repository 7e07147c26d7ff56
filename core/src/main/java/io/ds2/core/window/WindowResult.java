package io.ds2.core.window;

/** A window ready for the model, or the reason there is none (yet). */
public sealed interface WindowResult {
  record Ready(ObservationWindow window) implements WindowResult {}

  record NotReady(WindowProblem problem, String detail) implements WindowResult {
    public String message() {
      return detail;
    }
  }
}
