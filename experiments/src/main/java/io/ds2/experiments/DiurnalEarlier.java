package io.ds2.experiments;

/** The earlier sets of ds2's diurnal runs, newest first, each as it was judged. */
enum DiurnalEarlier {
  /** Both controllers' runs at once at 2d1fb98, before a due scale-down joined any restart. */
  TO_LATEST(
      "diurnal-to-latest",
      """
        ### Earlier: a scale-down joining a rescale only within a window (2d1fb98)

        The same benchmark, ds2's six runs at once as above, before a pending scale-down joined a
        rescale whenever its delay ended before its vertex could act again on its own (d545693):
        the Orders source's night step, due 1.5 min after the Join's evening scale-down, was a
        rescale of its own.

        """,
      DiurnalNotes.TO_LATEST,
      false),

  /** Both controllers' runs at once at 230f007, before a forecast's scale-down went lower. */
  LEAD(
      "diurnal-lead",
      """
        ### Earlier: a scale-down to the highest since the need fell (230f007)

        The same benchmark, ds2's six runs at once as above, before a scale-down with a forecast
        acting went to the last windows' need (2d1fb98): the evening's scale-down went to the
        afternoon's level, and the night stayed there.

        """,
      DiurnalNotes.LEAD,
      false),

  /** Both controllers' runs at once at 301773d, before the lead time counted activation. */
  TOGETHER(
      "diurnal-together",
      """
        ### Earlier: the lead time counting one window (301773d)

        The same benchmark, ds2's six runs at once as above, before the forecast's lead time
        counted every window a change must persist (230f007): a rise first seen within the lead
        time's last window was made a window late.

        """,
      DiurnalNotes.TOGETHER,
      true),

  /** Predictive runs at 301773d beside reactive runs at 519a4ae made on another machine load. */
  APART(
      "diurnal-sure",
      """
        ### Earlier: the two controllers run apart (predictive 301773d, reactive 519a4ae)

        The same code as above, but the predictive runs made together on one day and the reactive
        runs (copied from `results/diurnal-wallclock`) on another, on a more loaded machine.

        """,
      DiurnalNotes.SURE,
      true),

  /** Runs whose forecast sized for its full peak (5432521), the reactive runs beside them. */
  FULL_PEAK(
      "diurnal-wallclock",
      """
        ### Earlier: the forecast sized for its full peak (5432521)

        The same benchmark, the feed on the wall clock, before a rise was sized for the forecast's
        peak less its error (301773d); the reactive runs are the ones above (copied there).

        """,
      DiurnalNotes.WALLCLOCK,
      true),

  /** Runs on scale-up-tolerance's code whose feed paced on a monotonic clock. */
  HEADROOM(
      "diurnal-headroom",
      """
        ### Earlier: the feed on a monotonic clock (73567e8 and 371c5af)

        The same benchmark on scale-up-tolerance's decision code, before the feed paced on the
        wall clock (dad2a19, 519a4ae) and before the forecast's fixes (99c5d4f, 5432521).

        """,
      DiurnalNotes.HEADROOM,
      true),

  /** Runs before scale-up-tolerance, and the Flink autoscaler's. */
  BEFORE_TOLERANCE(
      "diurnal",
      """
        ### Earlier: the diurnal benchmark before scale-up-tolerance (ece3271 and older)

        The same benchmark, run on ds2's decision code before 73567e8 (a needed scale-up was
        never held, however small its need), and the Flink autoscaler's runs.

        """,
      DiurnalNotes.BEFORE_TOLERANCE,
      true);

  /** Its directory under the results. */
  final String dir;

  final String heading;
  final String notes;
  // Whether its notes were written before its runs were rescored (e9a1584).
  final boolean notesBeforeRescore;

  DiurnalEarlier(String dir, String heading, String notes, boolean notesBeforeRescore) {
    this.dir = dir;
    this.heading = heading;
    this.notes = notes;
    this.notesBeforeRescore = notesBeforeRescore;
  }
}
