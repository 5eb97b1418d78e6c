package lab.exactlyonce.ops;

import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client address behind a reverse proxy: only a trusted proxy's X-Forwarded-For counts. */
class TrustedProxiesTest {
  private static final TrustedProxies PROXIES = TrustedProxies.parse("127.0.0.1, 10.0.0.0/8, ::1");

  @ParameterizedTest(name = "from {0} with X-Forwarded-For ''{1}'' -> {2}")
  @CsvSource(delimiter = '|', nullValues = "none", value = {
      "203.0.113.9 | 198.51.100.1           | 203.0.113.9",   // not a proxy: its own address, whatever it claims
      "127.0.0.1   | none                   | 127.0.0.1",     // a proxy that forwards nothing
      "127.0.0.1   | 198.51.100.1           | 198.51.100.1",
      "127.0.0.1   | 198.51.100.1, 10.1.2.3 | 198.51.100.1",  // through two trusted proxies
      "127.0.0.1   | 6.6.6.6, 198.51.100.1  | 198.51.100.1",  // the left-most entry is the client's own claim
      "127.0.0.1   | 10.9.9.9, 10.1.2.3     | 10.9.9.9",      // only proxies: the left-most
      "127.0.0.1   | not-an-ip, 10.1.2.3    | 10.1.2.3",      // a malformed hop ends the walk at the last good one
      "127.0.0.1   | example.org            | 127.0.0.1",     // never a DNS lookup
      "::1         | 2001:db8::7            | 2001:db8:0:0:0:0:0:7",
      "10.200.0.1  | [2001:db8::8]          | 2001:db8:0:0:0:0:0:8"})
  void the_client_is_the_right_most_address_that_is_not_a_trusted_proxy(String remote, String forwarded, String client) {
    assertEquals(client, PROXIES.clientOf(remote, forwarded));
  }

  @Test
  void without_trusted_proxies_the_header_is_ignored() {
    assertEquals("127.0.0.1", TrustedProxies.none().clientOf("127.0.0.1", "198.51.100.1"));
  }

  @Test
  void a_host_name_or_a_broken_entry_is_a_one_line_configuration_error() {
    var e = assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--trusted-proxies", "10.0.0.0/8, proxy.local"}, Map.of()));
    assertEquals("--trusted-proxies takes IP addresses, CIDR blocks (10.0.0.0/8) or ranges (10.0.0.1-10.0.0.9) separated "
        + "by commas, not host names; got 'proxy.local'", e.getMessage());
    e = assertThrows(Config.ConfigException.class, () -> Config.from(new String[0], Map.of("TRUSTED_PROXIES", "10.0.0.0/99")));
    assertEquals("--trusted-proxies: '10.0.0.0/99' is not a valid address, CIDR block or range", e.getMessage());
    assertEquals(List.of("10.0.0.1-10.0.0.9", "::1"),
        Config.from(new String[] {"--trusted-proxies", "10.0.0.1-10.0.0.9,,::1"}, Map.of()).ops().trustedProxies().patterns());
  }

  @Test
  void behind_a_trusted_proxy_metrics_are_refused_to_a_remote_client_by_default() {
    Config config = Config.from(new String[] {"--trusted-proxies", "127.0.0.1"}, Map.of());
    assertEquals(OpsSettings.MetricsAccess.LOCAL, config.ops().metrics(), "what an instance started without --metrics serves");
    OpsSettings ops = TestConfig.defaults().ops().withMetrics(config.ops().metrics())
        .withTrustedProxies(config.ops().trustedProxies());
    config = TestConfig.defaults();
    try (TestServer server = TestServer.start(config.withOps(ops))) {
      var remote = server.send(HttpRequest.newBuilder(URI.create(server.url("/metrics"))).header("X-Forwarded-For", "203.0.113.9").GET());
      assertEquals(403, remote.statusCode());
      assertTrue(remote.body().contains("/metrics is only served to this machine (--metrics local)"), remote.body());
      assertEquals(200, server.get("/metrics").statusCode(), "the proxy's own machine, nothing forwarded");
    }
  }

  @Test
  void a_forged_header_from_an_untrusted_address_changes_nothing() {
    Config config = TestConfig.defaults();
    OpsSettings ops = config.ops().withMetrics(OpsSettings.MetricsAccess.LOCAL);
    try (TestServer server = TestServer.start(config.withOps(ops))) {
      var forged = server.send(HttpRequest.newBuilder(URI.create(server.url("/metrics"))).header("X-Forwarded-For", "203.0.113.9").GET());
      assertEquals(200, forged.statusCode(), "no proxy is trusted, so the header is not believed");
    }
  }
}
