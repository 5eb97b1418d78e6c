package lab.exactlyonce;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Exits 0 when the app on this machine answers {@code GET /healthz} with 200, else 1. Used by the container's
 * health check, where no curl is installed: {@code java -cp exactly-once-lab.jar lab.exactlyonce.HealthCheck}.
 */
public final class HealthCheck {
  private HealthCheck() {}

  public static void main(String[] args) {
    String port = System.getenv().getOrDefault("PORT", String.valueOf(Config.DEFAULT_PORT));
    try {
      HttpResponse<Void> response = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz")).timeout(Duration.ofSeconds(3)).build(),
          HttpResponse.BodyHandlers.discarding());
      System.exit(response.statusCode() == 200 ? 0 : 1);
    } catch (Exception e) {
      System.err.println("health check failed: " + e.getMessage());
      System.exit(1);
    }
  }
}
