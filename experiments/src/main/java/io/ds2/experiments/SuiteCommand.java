package io.ds2.experiments;

import io.ds2.experiments.bench.ClusterSettings;
import io.ds2.experiments.bench.Saso;
import io.ds2.experiments.bench.Scenario;
import io.ds2.experiments.bench.ScenarioRun;
import io.ds2.experiments.bench.SuiteReport;
import io.ds2.experiments.bench.controllers.Controllers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/ds2-bench suite}: scenarios x controllers, each a fresh run, into runs.json. */
@Command(
    name = "suite",
    mixinStandardHelpOptions = true,
    description =
        "Run every scenario under every controller (or the smoke scenario); write runs.json.")
final class SuiteCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--smoke",
      description = "Only the smoke scenario with ds2 (fails if it misses the oracle).")
  boolean smoke;

  @Option(names = "--controllers", split = ",", description = "Default: all.")
  List<String> controllers = Controllers.names();

  @Option(names = "--scenarios", split = ",", description = "Default: the suite's.")
  List<String> scenarios;

  @Option(
      names = "--out",
      description =
          "Default: experiments/results/suite (experiments/results/kafka-suite with --feed"
              + " kafka), with -flink-defaults appended on a cluster at Flink's defaults.")
  Path out;

  @Option(
      names = "--feed",
      description =
          "Where the jobs' records come from: synthetic (sources generate them in the job) or"
              + " kafka (a broker the run starts, a producer per source, checkpointed"
              + " KafkaSources). Default: synthetic.")
  String feed = "synthetic";

  @Option(
      names = "--cluster",
      description =
          "flink-defaults (10 s metric refresh, default network buffers and cool-downs) or tuned"
              + " (the earlier bench: 1 s refresh and cool-downs, small buffers with Kafka)."
              + " Default: flink-defaults.")
  String cluster = ClusterSettings.FLINK_DEFAULTS.label();

  @Option(
      names = "--repeats",
      split = ",",
      description =
          "Which repeats to run (numbers, each a fresh run; e.g. 1,2,3). Default: 1. A repeat"
              + " replaces the stored run with the same number.")
  List<Integer> repeats = List.of(1);

  @Override
  public Integer call() throws Exception {
    ScenarioRun.Feed source =
        switch (feed) {
          case "synthetic" -> ScenarioRun.Feed.SYNTHETIC;
          case "kafka" -> ScenarioRun.Feed.KAFKA;
          default ->
              throw new CommandLine.ParameterException(
                  spec.commandLine(), "--feed must be synthetic or kafka, was " + feed);
        };
    ClusterSettings settings;
    try {
      settings = ClusterSettings.of(cluster);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (out == null) {
      out =
          Path.of(
              (source == ScenarioRun.Feed.KAFKA
                      ? "experiments/results/kafka-suite"
                      : "experiments/results/suite")
                  + (settings == ClusterSettings.FLINK_DEFAULTS ? "-flink-defaults" : ""));
    }
    Files.createDirectories(out);
    List<Saso.Result> results = new ArrayList<>();
    List<Scenario> list;
    try {
      list = scenarioList(source);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }

    int failed = 0;
    for (int repeat : repeats) {
      for (var s : list) {
        for (String c : smoke ? List.of("ds2") : controllers) {
          try {
            var r = ScenarioRun.run(s, Controllers.byName(c), out, repeat, source, settings);
            System.out.println(SuiteReport.row(r));
            results.add(r);
            // Stored run by run: a long suite that fails late keeps what it measured.
            SuiteReport.write(out.resolve("runs.json"), List.of(r));
          } catch (Exception e) {
            failed++;
            System.err.printf("%s under %s (repeat %d) failed: %s%n", s.name(), c, repeat, e);
          }
        }
      }
    }
    boolean ok =
        results.stream().filter(r -> r.controller().equals("ds2")).allMatch(r -> r.reachedOracle());
    return (smoke && !ok) || failed > 0 ? 1 : 0;
  }

  private List<Scenario> scenarioList(ScenarioRun.Feed source) {
    return smoke
        ? List.of(Scenario.smoke())
        : source == ScenarioRun.Feed.KAFKA
            ? scenarios == null
                ? Scenario.kafkaSuite()
                : scenarios.stream().map(Scenario::kafkaByName).toList()
            : scenarios == null
                ? Scenario.suite()
                : scenarios.stream().map(Scenario::byName).toList();
  }
}
