package io.ds2.controller.whatif;

/** The replayed recording has no more samples: the replay loop ends here. */
final class EndOfRecording extends RuntimeException {
  private static final long serialVersionUID = 1L;

  EndOfRecording() {
    super("end of recording", null, false, false);
  }
}
