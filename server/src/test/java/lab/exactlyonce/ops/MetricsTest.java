package lab.exactlyonce.ops;

import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("sandbox")
class MetricsTest {

  /** The sample lines of one metric family (no comments), e.g. all of {@code http_server_requests_seconds_count}. */
  private static List<String> samples(String scrape, String name) {
    return Arrays.stream(scrape.split("\n")).filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
        .collect(Collectors.toList());
  }

  @Test
  void requests_are_counted_by_route_template_not_by_raw_path() {
    try (TestServer server = TestServer.start()) {
      assertEquals(200, server.get("/lessons/exactly-once").statusCode());
      assertEquals(404, server.get("/lessons/no-such-lesson").statusCode());
      assertEquals(404, server.get("/no/such/page").statusCode());
      assertEquals(200, server.get("/assets/css/app.css").statusCode());

      var res = server.get("/metrics");
      assertEquals(200, res.statusCode());
      assertEquals("text/plain; version=0.0.4; charset=utf-8", res.headers().firstValue("Content-Type").orElseThrow());
      String body = res.body();
      List<String> counts = samples(body, "http_server_requests_seconds_count");
      assertTrue(counts.contains("http_server_requests_seconds_count{method=\"GET\",route=\"/lessons/{id}\",status=\"200\"} 1"),
          String.join("\n", counts));
      assertTrue(counts.contains("http_server_requests_seconds_count{method=\"GET\",route=\"/lessons/{id}\",status=\"404\"} 1"),
          String.join("\n", counts));
      assertTrue(counts.contains("http_server_requests_seconds_count{method=\"GET\",route=\"NOT_FOUND\",status=\"404\"} 1"),
          String.join("\n", counts));
      assertTrue(counts.contains("http_server_requests_seconds_count{method=\"GET\",route=\"/assets/*\",status=\"200\"} 1"),
          String.join("\n", counts));
      assertFalse(body.contains("no-such-lesson"), "a raw path leaked into a label");
      assertFalse(body.contains("/no/such/page"), "a raw path leaked into a label");
      // latency buckets for p99 in Prometheus
      assertTrue(body.contains("http_server_requests_seconds_bucket{method=\"GET\",route=\"/lessons/{id}\",status=\"200\",le=\"0.25\"}"));
    }
  }

  @Test
  void jvm_sandbox_and_live_stream_gauges_are_exported() {
    try (TestServer server = TestServer.start()) {
      String body = server.get("/metrics").body();
      for (String name : List.of("jvm_memory_used_bytes", "jvm_threads_live_threads", "process_uptime_seconds",
          "eolab_sandbox_queue_depth", "eolab_sandbox_workers_busy", "eolab_sandbox_workers",
          "eolab_sse_connections")) {
        assertFalse(samples(body, name).isEmpty(), name + " missing from:\n" + body);
      }
      assertTrue(samples(body, "eolab_sse_connections").contains("eolab_sse_connections 0.0"), body);
      assertTrue(samples(body, "eolab_sandbox_runs_total").contains("eolab_sandbox_runs_total{outcome=\"ok\"} 0.0"));
    }
  }

  @Test
  void sandbox_runs_are_counted_by_outcome() throws Exception {
    try (TestServer server = TestServer.startWithRealSandbox(TestConfig.defaults())) {
      assertEquals(200, server.postJson("/api/run", "{\"source\": \"public class Hi { public static void main(String[] a) { System.out.println(42); } }\"}").statusCode());
      assertEquals(200, server.postJson("/api/run", "{\"source\": \"int x = ;\"}").statusCode());
      String body = server.get("/metrics").body();
      List<String> runs = samples(body, "eolab_sandbox_runs_total");
      assertTrue(runs.contains("eolab_sandbox_runs_total{outcome=\"ok\"} 1.0"), String.join("\n", runs));
      assertTrue(runs.contains("eolab_sandbox_runs_total{outcome=\"compile_error\"} 1.0"), String.join("\n", runs));
      assertTrue(samples(body, "http_server_requests_seconds_count")
          .contains("http_server_requests_seconds_count{method=\"POST\",route=\"/api/run\",status=\"200\"} 2"));
      // the self-check ran when the sandbox started: this machine (root, bubblewrap) reaches hardened
      List<String> confinement = samples(body, "eolab_sandbox_confinement");
      assertTrue(confinement.contains("eolab_sandbox_confinement{level=\"hardened\"} 1.0"), String.join("\n", confinement));
      assertTrue(confinement.contains("eolab_sandbox_confinement{level=\"none\"} 0.0"), String.join("\n", confinement));
      String health = server.get("/healthz").body();
      assertTrue(health.matches("\\{\"status\":\"ok\",\"sandboxConfinement\":\"hardened\","
          + "\"sandboxWorkers\":\"(warming|ready|on-first-run)\",\"engineLab\":\"off\"}"), health);
    }
  }

  @Test
  void metrics_can_be_switched_off() {
    Config config = TestConfig.defaults();
    try (TestServer server = TestServer.start(config.withOps(config.ops().withMetrics(OpsSettings.MetricsAccess.OFF)))) {
      assertEquals(404, server.get("/metrics").statusCode());
    }
  }

  @Test
  void local_metrics_are_served_to_this_machine() {
    Config config = TestConfig.defaults();
    try (TestServer server = TestServer.start(config.withOps(config.ops().withMetrics(OpsSettings.MetricsAccess.LOCAL)))) {
      assertEquals(200, server.get("/metrics").statusCode());
    }
  }

  @Test
  void bad_ops_options_are_named() {
    var e = Assertions.assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--metrics", "everyone"}, Map.of()));
    assertEquals("--metrics must be one of public, local, off, got 'everyone'", e.getMessage());
    e = Assertions.assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--request-log", "maybe"}, Map.of()));
    assertEquals("--request-log must be on or off, got 'maybe'", e.getMessage());
  }
}
