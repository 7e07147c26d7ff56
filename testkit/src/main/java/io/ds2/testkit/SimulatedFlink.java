package io.ds2.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Flink REST endpoint on 127.0.0.1 serving many {@link FluidJob}s: the subset of the API ds2 uses
 * (job overview, job details with plan, metric discovery and values per subtask, restarts, resource
 * requirements GET/PUT, cluster overview), answered from the fluid model. For scale tests only.
 */
public final class SimulatedFlink implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] COUNTERS = {
    "numRecordsIn",
    "numRecordsOut",
    "accumulateBusyTimeMs",
    "accumulateIdleTimeMs",
    "accumulateBackPressuredTimeMs"
  };
  private final HttpServer server;
  private final ExecutorService threads;
  private final Map<String, FluidJob> jobs = new ConcurrentHashMap<>();
  private final AtomicLong requests = new AtomicLong();
  // When each job was last read by a controller (anything but its resource requirements, which
  // the Flink operator's stand-in reads and writes).
  private final Map<String, Long> lastRead = new ConcurrentHashMap<>();
  private volatile int slotsTotal = 100_000;

  public SimulatedFlink(int threads) throws IOException {
    // Keep connections open like Flink's Netty server does: the JDK server's defaults (200 idle
    // connections, closed after 30 s) drop connections the client still pools, which then fail
    // as "unexpected end of stream" (ds2's client does not retry a request blindly).
    System.setProperty("sun.net.httpserver.maxIdleConnections", "10000");
    System.setProperty("sun.net.httpserver.idleInterval", "600");
    // And answer without Nagle's delay, as Netty (TCP_NODELAY on by default) does: the JDK server
    // writes a response's headers and body apart, so with Nagle on each answer on a kept-alive
    // connection waits for the client's delayed ACK, about 40 ms, a cost Flink does not have.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    this.server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
    this.threads = Executors.newFixedThreadPool(threads);
    server.setExecutor(this.threads);
    server.createContext("/", this::handle);
    server.start();
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  public void add(FluidJob job) {
    jobs.put(job.id(), job);
  }

  public void remove(String jobId) {
    jobs.remove(jobId);
  }

  public long requests() {
    return requests.get();
  }

  /**
   * The slots {@code /overview} reports (half of them free); 100,000 unless set (an application
   * cluster's task managers, for a test of a job's quotas).
   */
  public void slotsTotal(int slots) {
    this.slotsTotal = slots;
  }

  /** When a controller last read the job (epoch ms), or 0 if never. */
  public long lastRead(String jobId) {
    return lastRead.getOrDefault(jobId, 0L);
  }

  private void handle(HttpExchange x) throws IOException {
    requests.incrementAndGet();
    try {
      String[] p = x.getRequestURI().getPath().split("/");
      Map<String, String> query = query(x.getRequestURI().getRawQuery());
      long now = System.currentTimeMillis();
      JsonNode body;
      if (p.length == 2 && p[1].equals("overview")) {
        body =
            JSON.createObjectNode()
                .put("slots-total", slotsTotal)
                .put("slots-available", slotsTotal / 2);
      } else if (p.length == 3 && p[1].equals("jobmanager") && p[2].equals("config")) {
        // Values are computed per request, as fresh as a store refreshed every second.
        body =
            JSON.createArrayNode()
                .add(
                    JSON.createObjectNode()
                        .put("key", "metrics.fetcher.update-interval")
                        .put("value", "1000"));
      } else if (p.length == 3 && p[1].equals("jobs") && p[2].equals("overview")) {
        ObjectNode overview = JSON.createObjectNode();
        ArrayNode list = overview.putArray("jobs");
        jobs.values()
            .forEach(
                j ->
                    list.addObject()
                        .put("jid", j.id())
                        .put("name", "sim-" + j.id())
                        .put("state", "RUNNING")
                        .put("start-time", j.runningSinceMs()));
        body = overview;
      } else if (p.length >= 3 && p[1].equals("jobs")) {
        FluidJob job = jobs.get(p[2]);
        if (job == null) {
          send(x, 404, JSON.createObjectNode().putArray("errors").add("job not found"));
          return;
        }
        if (!(p.length == 4 && p[3].equals("resource-requirements"))) {
          lastRead.put(job.id(), now);
        }
        body = jobRoute(x, job, p, query, now);
      } else {
        send(x, 404, JSON.createObjectNode().putArray("errors").add("not found"));
        return;
      }
      send(x, 200, body);
    } catch (RuntimeException e) {
      send(x, 500, JSON.createObjectNode().putArray("errors").add(String.valueOf(e)));
    }
  }

  private JsonNode jobRoute(
      HttpExchange x, FluidJob job, String[] p, Map<String, String> query, long now)
      throws IOException {
    if (p.length == 3) {
      return details(job);
    }
    if (p.length == 4 && p[3].equals("metrics")) {
      ArrayNode a = JSON.createArrayNode();
      a.addObject().put("id", "numRestarts").put("value", "0");
      return a;
    }
    if (p.length == 4 && p[3].equals("resource-requirements")) {
      if (x.getRequestMethod().equals("PUT")) {
        JsonNode req = JSON.readTree(x.getRequestBody());
        Map<String, Integer> target = new HashMap<>();
        req.properties()
            .forEach(
                e ->
                    target.put(
                        e.getKey(), e.getValue().path("parallelism").path("upperBound").asInt()));
        job.rescale(target, now);
        return JSON.createObjectNode();
      }
      ObjectNode r = JSON.createObjectNode();
      job.parallelism()
          .forEach(
              (v, n) ->
                  r.putObject(v)
                      .putObject("parallelism")
                      .put("lowerBound", n)
                      .put("upperBound", n));
      return r;
    }
    if (p.length == 6 && p[3].equals("vertices") && p[5].equals("subtasks")) {
      return JSON.createArrayNode();
    }
    if (p.length == 7
        && p[3].equals("vertices")
        && p[5].equals("subtasks")
        && p[6].equals("metrics")) {
      ArrayNode a = JSON.createArrayNode();
      for (String c : COUNTERS) {
        a.addObject().put("id", c);
      }
      if (p[4].equals(job.stages().get(0).id())) {
        a.addObject().put("id", "Source__In.pendingRecords");
      }
      return a;
    }
    if (p.length == 6 && p[3].equals("vertices") && p[5].equals("metrics")) {
      ArrayNode a = JSON.createArrayNode();
      String get = query.getOrDefault("get", "");
      for (String id : get.split(",")) {
        int dot = id.indexOf('.');
        if (dot < 0) {
          continue;
        }
        String name = id.substring(dot + 1);
        double value;
        if (name.endsWith("pendingRecords")) {
          value = job.pendingRecords(now) / job.parallelism().get(p[4]);
        } else {
          double[] s = job.subtask(p[4], now);
          value =
              switch (name) {
                case "numRecordsIn" -> s[0];
                case "numRecordsOut" -> s[1];
                case "accumulateBusyTimeMs" -> s[2];
                case "accumulateIdleTimeMs" -> s[3];
                default -> 0;
              };
        }
        a.addObject().put("id", id).put("value", String.valueOf(Math.floor(value)));
      }
      return a;
    }
    throw new IllegalArgumentException("unsupported " + x.getRequestURI());
  }

  private static JsonNode details(FluidJob job) {
    ObjectNode d = JSON.createObjectNode();
    d.put("jid", job.id()).put("name", "sim-" + job.id()).put("state", "RUNNING");
    d.putObject("timestamps").put("RUNNING", job.runningSinceMs());
    ArrayNode vertices = d.putArray("vertices");
    ArrayNode nodes = d.putObject("plan").putArray("nodes");
    Map<String, Integer> p = job.parallelism();
    List<FluidJob.Stage> stages = job.stages();
    for (int i = 0; i < stages.size(); i++) {
      FluidJob.Stage s = stages.get(i);
      vertices
          .addObject()
          .put("id", s.id())
          .put("name", s.name())
          .put("parallelism", p.get(s.id()))
          .put("maxParallelism", 128)
          .put("status", "RUNNING");
      ObjectNode node = nodes.addObject().put("id", s.id());
      ArrayNode inputs = node.putArray("inputs");
      if (i > 0) {
        inputs.addObject().put("id", stages.get(i - 1).id()).put("ship_strategy", "REBALANCE");
      }
    }
    return d;
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> q = new LinkedHashMap<>();
    if (raw == null) {
      return q;
    }
    for (String part : raw.split("&")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        q.put(
            part.substring(0, eq),
            java.net.URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return q;
  }

  private static void send(HttpExchange x, int status, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    x.getResponseHeaders().set("Content-Type", "application/json");
    x.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
