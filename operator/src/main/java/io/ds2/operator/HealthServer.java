package io.ds2.operator;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/** {@code /healthz}, {@code /readyz} and {@code /metrics} on the management port. */
public final class HealthServer implements AutoCloseable {
  /** Probes and scrapes are few; a bounded pool keeps a slow client from holding the others up. */
  private static final int THREADS = 2;

  private static final int QUEUED = 16;
  private final HttpServer server;
  private final ThreadPoolExecutor pool;

  public HealthServer(
      String bindAddress,
      int port,
      BooleanSupplier healthy,
      BooleanSupplier ready,
      OperatorMetrics metrics)
      throws IOException {
    server = HttpServer.create(new InetSocketAddress(bindAddress, port), 0);
    server.createContext("/healthz", exchange -> answer(exchange, healthy.getAsBoolean()));
    server.createContext("/readyz", exchange -> answer(exchange, ready.getAsBoolean()));
    server.createContext(
        "/metrics",
        exchange -> {
          byte[] body = metrics.text().getBytes(StandardCharsets.UTF_8);
          exchange
              .getResponseHeaders()
              .add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    AtomicInteger n = new AtomicInteger();
    pool =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUED),
            r -> {
              Thread t = new Thread(r, "ds2-management-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            },
            // Beyond the queue a request is dropped (its connection closed), not queued forever.
            new ThreadPoolExecutor.DiscardPolicy());
    server.setExecutor(pool);
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void answer(com.sun.net.httpserver.HttpExchange exchange, boolean ok)
      throws IOException {
    byte[] body = (ok ? "ok\n" : "not ok\n").getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(ok ? 200 : 503, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
