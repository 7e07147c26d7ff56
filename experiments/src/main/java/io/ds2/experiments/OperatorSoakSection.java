package io.ds2.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The operator soak section of RESULTS.md: faults on a real API server, one writer, no leaks. */
final class OperatorSoakSection {
  private OperatorSoakSection() {}

  static void render(StringBuilder md, Path file) throws IOException {
    md.append("## Operator soak: faults on a real API server\n\n");
    if (!Files.exists(file)) {
      md.append("Not measured yet.\n\n");
      return;
    }
    JsonNode root = new ObjectMapper().readTree(file.toFile());
    JsonNode r = root.get("results").get(0);
    Map<String, Integer> faults = new TreeMap<>();
    r.get("faults").forEach(f -> faults.merge(f.get("kind").asText(), 1, Integer::sum));
    int infeasible = 0;
    double mismatch = 0;
    for (JsonNode j : r.get("jobs")) {
      infeasible += j.get("infeasibleSightings").asInt();
      mismatch = Math.max(mismatch, j.get("longestMismatchSeconds").asDouble());
    }
    md.append(
        fmt(
            """
            `bin/ds2-bench operator-soak --minutes %.0f` (one run%s): two ds2 replicas at the chart's
            settings (Lease 15 s, renew deadline 10 s, retry 2 s; ds2's defaults: 30 s windows, 3 min
            rescale timeout, 10 min back-off) on a real kube-apiserver and etcd with RBAC on, as the
            chart's service account; six simulated jobs behind one Flink REST endpoint, each with a
            stand-in for the Flink operator; demand switching x1 / x1.5 every 8 min. In every 10-min
            cycle: the API server killed and restarted (every other time down 25 s, longer than the
            renew deadline), the Lease taken by another identity for 15 s, one job's Flink operator
            paused 90 s, and one job's upgrades not taking (the stand-in marks them reconciled and
            leaves the job as it was) or, the other cycles, a change freeze (a
            ValidatingAdmissionPolicy) refusing ds2's patches of another job's spec; one job is a
            standalone deployment of 3 slots that needs 4 at the high demand. Everything in one JVM
            (%d MiB max heap), sampled every second; heap after a full GC and threads every 30 s.
            Faults injected: %s.

            What must hold, as measured:
            - **No job left unmanaged for more than two windows** (%.0f s): the longest any job went
              without a read from ds2 was **%.1f s**.
            - **Never two writers**: %d writes to FlinkDeployments (%s); by a replica that did not
              lead at that moment **%d**, while another replica led **%d**. Seconds in which both
              replicas led: %d; with none leading: %d (Lease hand-overs and outages).
            - **No infeasible override left in any spec**: the capped job's spec never asked for more
              than its 3 slots (%d sightings over the run); the longest a spec asked for what its job
              did not run was %.0f s (rescale timeout 180 s: an upgrade that did not take, or one
              the paused Flink operator never reconciled — the stand-in does not reconcile again on a
              timer, as the real operator does — is put back at the timeout, then backed off).
            - **Heap and threads flat**: slopes over whole cycles after the first, %.2f MiB/h and %.2f
              threads/h.

            Shorter runs (1- and 2-minute cycles) before this one found three ways to two writers,
            fixed at fb9b5d2: a Lease renewal retried by the client through an outage kept a
            replica leading 28 s without a Lease; the elector's thread, which renews, was blocked by
            the loops' start during an outage; and a patch of a stopped leader, retried until the
            server came back, landed 2 s into the other replica's term. Renewals and writes are now
            sent once with short timeouts, writes check leadership just before they go out, and the
            loops start off the elector's thread.

            Events written (type/reason, counted): %s. Decisions / applied rescales by replica: %s.

            | job | role | longest unread (s) | longest spec ≠ job (s) | overrides applied | ends asking | ends running |
            |---|---|---:|---:|---:|---|---|
            """,
            r.get("minutes").asDouble(),
            root.hasNonNull("commit") ? ", at " + root.get("commit").asText() : "",
            root.get("maxHeapMiB").asInt(),
            faults,
            2 * r.get("windowSeconds").asDouble(),
            r.get("longestUnreadSeconds").asDouble(),
            r.get("writes").asInt(),
            r.get("writesByReplica"),
            r.get("writesByNonLeader").asInt(),
            r.get("writesWhileAnotherLed").asInt(),
            r.get("bothLeadingSeconds").asInt(),
            r.get("noLeaderSeconds").asInt(),
            infeasible,
            mismatch,
            r.get("heapSlopeMiBPerHour").asDouble(),
            r.get("threadSlopePerHour").asDouble(),
            r.get("eventsByReason"),
            figures(r.get("decisionsAndRescalesByReplica"))));
    for (JsonNode j : r.get("jobs")) {
      md.append(
          fmt(
              "| %s | %s | %.1f | %.0f | %d | %s | %s |%n",
              j.get("name").asText(),
              j.get("role").asText().toLowerCase(Locale.ROOT),
              j.get("longestUnreadSeconds").asDouble(),
              j.get("longestMismatchSeconds").asDouble(),
              j.get("applied").asInt(),
              j.get("finalOverrides").asText(),
              j.get("finalParallelism")));
    }
    md.append("\n");
  }

  private static String figures(JsonNode byReplica) {
    StringBuilder b = new StringBuilder();
    byReplica
        .fields()
        .forEachRemaining(
            e ->
                b.append(b.isEmpty() ? "" : ", ")
                    .append(e.getKey())
                    .append(' ')
                    .append(e.getValue().get(0).asLong())
                    .append(" / ")
                    .append(e.getValue().get(1).asLong()));
    return b.toString();
  }

  private static String fmt(String f, Object... args) {
    return String.format(Locale.ROOT, f, args);
  }
}
