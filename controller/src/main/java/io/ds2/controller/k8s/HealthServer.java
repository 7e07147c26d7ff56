package io.ds2.controller.k8s;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

/** {@code /healthz}, {@code /readyz} and {@code /metrics} on the management port. */
public final class HealthServer implements AutoCloseable {
  private final HttpServer server;

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
  }
}
