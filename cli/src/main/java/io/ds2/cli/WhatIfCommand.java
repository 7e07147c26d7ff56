package io.ds2.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ds2.commandline.ExitCodes;
import io.ds2.commandline.ScalingFlags;
import io.ds2.commandline.UsageException;
import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.options.Durations;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.recording.LiveRecording;
import io.ds2.recording.ReadErrors;
import io.ds2.recording.RecordSource;
import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingReader;
import io.ds2.whatif.ReferenceLog;
import io.ds2.whatif.WhatIf;
import io.ds2.whatif.WhatIfHtml;
import io.ds2.whatif.WhatIfJson;
import io.ds2.whatif.WhatIfSummary;
import io.ds2.whatif.WhatIfText;
import io.ds2.whatif.sim.LearnedJob;
import io.ds2.whatif.sim.Outcome;
import io.ds2.whatif.sim.SideBySide;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Replays recorded metrics through the live loop's code, at today's or a what-if demand. */
@Command(
    name = "whatif",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    header = "Replay a recording or a DS2 reference log through ds2's loop.",
    description = {
      "Replays a recording (ds2 record, or run/recommend --record) or a DS2 reference log through"
          + " the same window, model and policy code as the live loop.",
      "Prints one decision per window, the capacity plan at the measured or a what-if demand, and"
          + " the rescales the policy would have made, when and why.",
      "Options the recording was made with are used unless a flag is given; the output says which."
    })
final class WhatIfCommand implements Callable<Integer>, ScalingFlags.Taker {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Input input;

  static final class Input {
    @Option(
        names = "--recording",
        paramLabel = "FILE",
        description = "A ds2 recording (.jsonl or .jsonl.gz).")
    Path recording;

    @ArgGroup(exclusive = false)
    ReferenceLogs ds2;
  }

  static final class ReferenceLogs {
    @Option(
        names = "--ds2-topology",
        required = true,
        paramLabel = "FILE",
        description = "DS2 reference topology CSV (op_id1,op_name1,instances1,op_id2,...).")
    Path topology;

    @Option(
        names = "--ds2-rates",
        required = true,
        paramLabel = "FILE",
        description = "DS2 reference rates log (8 columns per operator instance and window).")
    Path rates;

    @Option(
        names = "--ds2-source-rates",
        paramLabel = "FILE",
        description = "DS2 reference source rates CSV (source_operator_id,rate_per_instance).")
    Path sourceRates;
  }

  @Option(
      names = "--rate-scale",
      paramLabel = "X",
      description = "Size for the measured demand of every source times X (e.g. 2).")
  Double rateScale;

  @Mixin SourceOptions sources = new SourceOptions();

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      description = "table or json. Default: table.")
  OutputFormat output = OutputFormat.table;

  @Option(
      names = "--report",
      paramLabel = "FILE",
      description = "Also write a self-contained HTML report with charts to FILE.")
  Path report;

  @Option(
      names = "--skip-bad-lines",
      description = "Skip (and count) malformed lines instead of stopping at the first.")
  boolean skipBadLines;

  @Option(
      names = "--side-by-side",
      description =
          "After the replay, run the recorded demand again on the job as learnt from the"
              + " recording (its measured true rates; a fluid) from its recorded parallelism,"
              + " under ds2 acting: once reacting only (--forecast off), once acting on its"
              + " forecast (--forecast act); print seconds behind, peak backlog, slot-seconds"
              + " and rescales of both.")
  boolean sideBySide;

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  @Override
  public Integer call() throws Exception {
    ScalingFlags.validate(spec, Map.of()); // bad flags are usage errors before any file is read
    if (rateScale != null && !sources.given.isEmpty()) {
      throw new UsageException("--rate-scale and --source-rate exclude each other");
    }
    if (rateScale != null && (!(rateScale > 0) || rateScale.isInfinite())) {
      throw new UsageException("--rate-scale must be a number > 0, was " + rateScale);
    }
    double scale = rateScale == null ? 1 : rateScale;
    if (report != null) {
      WritableFile.check("--report", report); // before the replay, not after it
    }
    PrintWriter out = spec.commandLine().getOut();
    StderrProgress progress = new StderrProgress(spec.commandLine().getErr());
    try (RecordSource source = open()) {
      Ds2Options options = optionsFor(source.header(), source instanceof ReferenceLog);
      if (source instanceof ReferenceLog log) {
        log.singleWindowLasts(options.window());
      }
      Map<String, Double> given = new HashMap<>();
      WhatIfSummary summary = new WhatIfSummary(report != null);
      WhatIfText text = output == OutputFormat.table ? new WhatIfText(out) : null;
      WhatIfJson json = text == null ? new WhatIfJson(out) : null;
      Scenario sized = new Scenario(scale, given);
      WhatIf.Listener each = text != null ? text : json;
      LearnedJob.Learner learner = sideBySide ? new LearnedJob.Learner() : null;
      WhatIf.Totals totals =
          WhatIf.replay(
              source,
              options,
              graph -> {
                // Rates a DS2 reference log came with are demands too (scaled like the rest).
                source
                    .header()
                    .config()
                    .path(ReferenceLog.SOURCE_RATES)
                    .properties()
                    .forEach(e -> given.put(e.getKey(), e.getValue().asDouble() * scale));
                given.putAll(sources.resolve(graph));
                // Described for every output: the report labels its charts with it.
                String demand = sized.describe(graph);
                if (text != null) {
                  text.start(source.header(), source.describe(), demand);
                } else {
                  json.start(source.header(), source.describe(), given, scale);
                }
                // Split counts the live run was given replay with it; --source-splits wins.
                Map<String, Integer> splits = new HashMap<>();
                source
                    .header()
                    .config()
                    .path(LiveRecording.SOURCE_SPLITS)
                    .properties()
                    .forEach(
                        e -> {
                          if (!e.getValue().canConvertToInt() || e.getValue().asInt() < 1) {
                            throw new UsageException(
                                "the recording's sourceSplits of '"
                                    + e.getKey()
                                    + "' is not a split count ("
                                    + e.getValue()
                                    + "); give it as --source-splits");
                          }
                          splits.put(e.getKey(), e.getValue().asInt());
                        });
                splits.putAll(sources.splits(graph));
                return new DemandScenario(given, scale, splits);
              },
              new Fanout(
                  progress,
                  learner == null
                      ? List.of(summary, each)
                      : List.of(summary, each, WhatIf.Listener.of(learner, learner::replayed))));
      progress.done();
      if (sideBySide) {
        LearnedJob job =
            learner
                .job()
                .orElseThrow(
                    () ->
                        new UsageException(
                            "--side-by-side: the replay decided on fewer than two windows; there"
                                + " is no demand to run again"));
        progress.status("running the recorded demand again, reactive and predictive");
        Map<String, Outcome> runs = SideBySide.run(job, options);
        progress.done();
        if (text != null) {
          out.print(SideBySide.table(job, runs));
        } else {
          json.sideBySide(runs);
        }
      }
      String firstSkipped = source.firstSkipped().orElse(null);
      if (text != null) {
        text.finish(summary, totals, sized.description, source.skippedLines(), firstSkipped);
      } else {
        json.finish(summary, totals, source.skippedLines(), firstSkipped);
      }
      if (report != null) {
        String html =
            WhatIfHtml.render(
                source.header(), source.describe(), sized.description, summary, totals);
        try {
          Files.writeString(report, html, StandardCharsets.UTF_8);
        } catch (IOException e) {
          throw new UsageException("--report: cannot write " + report + ": " + ReadErrors.io(e));
        }
        spec.commandLine().getErr().println("report written to " + report);
        spec.commandLine().getErr().flush();
      }
    }
    return ExitCodes.OK;
  }

  /**
   * The scaling options for this recording: those the live run used (its header keeps them), a flag
   * still wins; and a replay polls at the recording's pace, so the sample interval is at least the
   * recording's cadence (its poll interval, or Flink's metric refresh if longer) unless given; but
   * no flag may leave no time for a window to form. Says on stderr what was taken from the
   * recording.
   */
  /**
   * @param ds2Log a DS2 reference log: its epochs are all of a job already running, with no restart
   *     in them, so no warm-up applies (unless {@code --warm-up} says otherwise)
   */
  private Ds2Options optionsFor(Recorded.Header header, boolean ds2Log) {
    Duration cadence = header.cadence();
    Map<String, String> recorded = new java.util.TreeMap<>();
    if (ds2Log && spec.findOption("--" + Ds2Options.WARM_UP).getValue() == null) {
      recorded.put(Ds2Options.WARM_UP, "0s");
    }
    JsonNode used = header.config().path("options");
    Map<String, String> defaults = Ds2Options.defaults().asMap();
    for (io.ds2.core.options.OptionSpec s : Ds2Options.SPECS) {
      if (used.hasNonNull(s.name())
          && spec.findOption("--" + s.name()).getValue() == null
          && !used.get(s.name()).asText().equals(defaults.get(s.name()))) {
        recorded.put(s.name(), used.get(s.name()).asText());
      }
    }
    boolean given = spec.findOption("--" + Ds2Options.SAMPLE_INTERVAL).getValue() != null;
    Duration interval =
        recorded.containsKey(Ds2Options.SAMPLE_INTERVAL)
            ? Durations.parse(recorded.get(Ds2Options.SAMPLE_INTERVAL))
            : Ds2Options.defaults().sampleInterval();
    if (!given && cadence.compareTo(interval) > 0) {
      recorded.put(Ds2Options.SAMPLE_INTERVAL, Durations.format(cadence));
    }
    try {
      Ds2Options.fromMap(recorded);
    } catch (io.ds2.core.options.InvalidOptionException e) {
      throw new UsageException(
          "the recording's options cannot be used (" + e.getMessage() + "); give them as flags");
    }
    if (!recorded.isEmpty()) {
      spec.commandLine()
          .getErr()
          .println(
              "whatif: from the recording (flags override): "
                  + recorded.entrySet().stream()
                      .map(e -> "--" + e.getKey() + " " + e.getValue())
                      .collect(java.util.stream.Collectors.joining(", ")));
    }
    Ds2Options o = ScalingFlags.read(spec, recorded);
    Duration wait = io.ds2.core.scaler.JobScaler.maxWait(o);
    Duration needed = o.window().plus(cadence.multipliedBy(2));
    if (wait.compareTo(needed) < 0) {
      throw new UsageException(
          "--sample-interval "
              + Durations.format(o.sampleInterval())
              + ": the recording holds a new reading every "
              + Durations.format(cadence)
              + ", and a window of "
              + Durations.format(o.window())
              + " needs two beyond it ("
              + Durations.format(needed)
              + "), but these settings wait at most "
              + Durations.format(wait)
              + "; leave --sample-interval out to poll at the recording's pace");
    }
    header
        .metricRefresh()
        .filter(refresh -> o.window().compareTo(refresh) < 0)
        .ifPresent(
            refresh ->
                spec.commandLine()
                    .getErr()
                    .println(
                        "whatif: warning: --window "
                            + Durations.format(o.window())
                            + " is shorter than the recording's metric refresh ("
                            + Durations.format(refresh)
                            + "): a window spans two readings, so at least "
                            + Durations.format(refresh)));
    return o;
  }

  private RecordSource open() throws IOException {
    if (input.recording != null) {
      return RecordingReader.open(input.recording, skipBadLines);
    }
    return ReferenceLog.open(
        input.ds2.topology, input.ds2.rates, input.ds2.sourceRates, skipBadLines);
  }

  /** The demand sized for, in words (resolved once the graph is known). */
  private static final class Scenario {
    final double scale;
    final Map<String, Double> given;
    String description = "measured demand";

    Scenario(double scale, Map<String, Double> given) {
      this.scale = scale;
      this.given = given;
    }

    String describe(io.ds2.core.graph.JobGraph graph) {
      if (!given.isEmpty()) {
        StringBuilder sb = new StringBuilder("given source rates");
        given.forEach(
            (id, r) ->
                sb.append(
                    String.format(
                        Locale.ROOT,
                        " %s=%.1f/s",
                        graph.vertex(id).map(v -> v.name()).orElse(id),
                        r)));
        description = sb + " (other sources as measured)";
      } else if (scale != 1) {
        description = "measured demand x " + scale;
      }
      return description;
    }
  }

  /** Sends the replay to the summary, the chosen output and the progress line. */
  private static final class Fanout implements WhatIf.Listener {
    private static final int PROGRESS_EVERY = 500;
    private final StderrProgress progress;
    private final List<WhatIf.Listener> outputs;
    private long samples;

    Fanout(StderrProgress progress, List<WhatIf.Listener> outputs) {
      this.progress = progress;
      this.outputs = outputs;
    }

    @Override
    public void on(JobTopology topology, ScalerEvent event) {
      outputs.forEach(o -> o.on(topology, event));
    }

    @Override
    public void replayed(Recorded record) {
      outputs.forEach(o -> o.replayed(record));
      if (record instanceof Recorded.Sample s && ++samples % PROGRESS_EVERY == 0) {
        progress.status("replaying: " + samples + " samples, at " + s.sample().time());
      }
    }
  }
}
