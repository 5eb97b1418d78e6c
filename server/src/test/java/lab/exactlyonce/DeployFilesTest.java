package lab.exactlyonce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import lab.exactlyonce.enginelab.EngineLabSettings;
import lab.exactlyonce.option.Option;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The compose file and the Kubernetes manifests configure app nodes with the variables the app reads, and values it
 * accepts: a renamed or misspelt variable in a deployment file would be ignored silently by a node.
 */
class DeployFilesTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  /** The environment variables the app reads: deployment files may set no others for a node. */
  private static final Set<String> ENVIRONMENT_VARIABLES =
      Config.OPTIONS.stream().map(Option::env).collect(Collectors.toUnmodifiableSet());
  /** {@code ${NAME:?message}} in compose: the operator's value; a secret good enough for the checks stands in. */
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{[A-Z_]+(:[?-][^}]*)?}");
  private static final String STAND_IN = "Q7RM-K2XV-9HTD-W4PN";

  @Test
  void compose_nodes_are_configured_with_variables_the_app_reads() throws IOException {
    JsonNode environment = YAML.readTree(Path.of("docs/deploy/compose.yaml").toFile()).path("x-node").path("environment");
    Map<String, String> env = new LinkedHashMap<>();
    environment.fields().forEachRemaining(e -> env.put(e.getKey(), PLACEHOLDER.matcher(e.getValue().asText()).replaceAll(STAND_IN)));
    assertAccepted("compose.yaml", env);
  }

  @Test
  void kubernetes_nodes_are_configured_with_variables_the_app_reads() throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    for (JsonNode document : YAML.readValues(YAML.createParser(Path.of("docs/deploy/kubernetes/eolab.yaml").toFile()),
        JsonNode.class).readAll()) {
      if (!"Deployment".equals(document.path("kind").asText())) continue;
      for (JsonNode container : document.path("spec").path("template").path("spec").path("containers")) {
        for (JsonNode variable : container.path("env")) {
          env.put(variable.path("name").asText(), variable.has("value") ? variable.path("value").asText() : STAND_IN);
        }
      }
    }
    assertAccepted("kubernetes/eolab.yaml", env);
  }

  /**
   * The image sets only variables the app reads and copies what {@code mvn package} builds: the app's jar and the
   * engine lab's, at the path its variable names.
   */
  @Test
  void the_dockerfile_sets_variables_the_app_reads_and_copies_what_the_build_makes() throws IOException {
    List<String> lines = Files.readAllLines(Path.of("Dockerfile"));
    Map<String, String> env = new LinkedHashMap<>();
    for (String line : lines) {
      if (!line.startsWith("ENV ")) continue;
      for (String pair : line.substring(4).trim().split("\\s+")) env.put(pair.split("=", 2)[0], pair.split("=", 2)[1]);
    }
    assertFalse(env.isEmpty(), "Dockerfile: no ENV found");
    for (String name : env.keySet()) {
      assertTrue(ENVIRONMENT_VARIABLES.contains(name), "Dockerfile sets " + name + ", which the app does not read");
    }
    Map<String, String> copied = new LinkedHashMap<>();
    for (String line : lines) {
      String[] words = line.trim().split("\\s+");
      if (words.length == 4 && words[0].equals("COPY") && words[1].equals("--from=build")) {
        copied.put(words[2].replaceFirst("^/src/", ""), words[3]);
      }
    }
    assertEquals(Map.of("target/exactly-once-lab.jar", "/app/exactly-once-lab.jar",
        EngineLabSettings.DEFAULT_JAR.toString(), env.get("ENGINE_LAB_JAR")), copied);
  }

  private static void assertAccepted(String file, Map<String, String> env) {
    assertFalse(env.isEmpty(), file + ": no environment for the app's nodes found");
    for (String name : env.keySet()) {
      assertTrue(ENVIRONMENT_VARIABLES.contains(name), file + " sets " + name + ", which the app does not read");
    }
    assertDoesNotThrow(() -> Config.from(new String[0], env), file + ": the app refuses these values");
  }
}
