package lab.exactlyonce.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import lab.exactlyonce.ContentFolder;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every bundled lesson, read as plain YAML (independently of the loader): ids are unique, map edges, flow steps and
 * snippet names resolve, and every in-text deep link ({@code [..](#qa/L3)}) lands on an element of the rendered
 * page, whose element ids are themselves unique.
 */
class LessonContentTest {
  private static final Pattern DEEP_LINK = Pattern.compile("\\]\\(#([^)\\s]+)\\)");
  private static final Pattern ELEMENT_ID = Pattern.compile("\\sid=\"([^\"]+)\"");

  @TestFactory
  Stream<DynamicTest> every_bundled_lesson() throws IOException {
    Path lessons = ContentFolder.resolve(Optional.empty(), "lessons");
    Path snippets = ContentFolder.resolve(Optional.empty(), "snippets");
    List<Path> files;
    try (Stream<Path> dirs = Files.list(lessons)) {
      files = dirs.map(d -> d.resolve("lesson.yaml")).filter(Files::isRegularFile).sorted().toList();
    }
    assertTrue(!files.isEmpty(), "no bundled lessons");
    return files.stream().flatMap(file -> {
      JsonNode root = read(file);
      String id = root.path("id").asText();
      return Stream.of(
          DynamicTest.dynamicTest(id + ": ids are unique", () -> idsAreUnique(root)),
          DynamicTest.dynamicTest(id + ": map edges and flow steps resolve", () -> graphsResolve(root)),
          DynamicTest.dynamicTest(id + ": snippets exist", () -> snippetsExist(root, snippets.resolve(id))),
          DynamicTest.dynamicTest(id + ": deep links land on the page", () -> deepLinksLand(root, id)));
    });
  }

  private static void idsAreUnique(JsonNode root) {
    Map<String, Integer> seen = new HashMap<>();
    List<String> duplicates = new ArrayList<>();
    walk(root, node -> {
      if (node != root && node.isObject() && node.hasNonNull("id") && seen.merge(node.get("id").asText(), 1, Integer::sum) == 2) {
        duplicates.add(node.get("id").asText());
      }
    });
    assertEquals(List.of(), duplicates, "ids used more than once");
    assertTrue(!seen.isEmpty(), "the walk found the ids");
  }

  private static void graphsResolve(JsonNode root) {
    List<String> dangling = new ArrayList<>();
    for (JsonNode map : root.path("maps")) {
      Set<String> nodes = ids(map.path("nodes"));
      for (JsonNode edge : map.path("edges")) {
        for (String end : List.of("from", "to")) {
          if (!nodes.contains(edge.path(end).asText())) dangling.add("edge " + edge.path("id").asText() + "." + end);
        }
      }
    }
    for (JsonNode flow : root.path("flows")) {
      Set<String> steps = ids(flow.path("steps"));
      if (!steps.contains(flow.path("start").asText())) dangling.add("flow " + flow.path("id").asText() + ".start");
      for (JsonNode step : flow.path("steps")) {
        for (JsonNode next : step.path("next")) {
          if (!steps.contains(next.path("to").asText())) dangling.add("step " + step.path("id").asText() + " -> " + next.path("to").asText());
        }
      }
    }
    assertEquals(List.of(), dangling);
  }

  private static void snippetsExist(JsonNode root, Path folder) throws IOException {
    Set<String> files = new HashSet<>();
    if (Files.isDirectory(folder)) {
      try (Stream<Path> list = Files.list(folder)) {
        // A snippet's id is its "// Id:" line: read here by hand rather than borrowed from the snippet catalog.
        for (Path file : list.filter(p -> p.getFileName().toString().endsWith(".java")).toList()) {
          Files.readAllLines(file).stream().filter(line -> line.startsWith("// Id: "))
              .forEach(line -> files.add(line.substring("// Id: ".length()).strip()));
        }
      }
    }
    List<String> missing = new ArrayList<>();
    walk(root, node -> {
      if (node.isObject() && node.has("snippet") && !files.contains(node.get("snippet").asText())) missing.add(node.get("snippet").asText());
    });
    assertEquals(List.of(), missing, "snippets referred to but not in " + folder);
  }

  private static void deepLinksLand(JsonNode root, String lessonId) {
    List<String> links = new ArrayList<>();
    walk(root, node -> {
      if (node.isTextual()) {
        Matcher m = DEEP_LINK.matcher(node.asText());
        while (m.find()) links.add(m.group(1));
      }
    });
    try (TestServer server = TestServer.start()) {
      String page = server.get("/lessons/" + lessonId).body();
      List<String> elementIds = new ArrayList<>();
      Matcher m = ELEMENT_ID.matcher(page);
      while (m.find()) elementIds.add(m.group(1));
      Set<String> unique = new HashSet<>();
      assertEquals(List.of(), elementIds.stream().filter(id -> !unique.add(id)).toList(), "element ids repeated on the page");
      assertEquals(List.of(), links.stream().filter(link -> !unique.contains(link) && !isTab(link)).toList(),
          "deep links with no element on the page");
    }
  }

  private static boolean isTab(String link) {
    return List.of("gist", "maps", "qa", "sandbox").contains(link);
  }

  private static Set<String> ids(JsonNode list) {
    Set<String> out = new HashSet<>();
    list.forEach(n -> out.add(n.path("id").asText()));
    return out;
  }

  private static void walk(JsonNode node, Consumer<JsonNode> visit) {
    visit.accept(node);
    node.forEach(child -> walk(child, visit));
  }

  private static JsonNode read(Path file) {
    try {
      return new YAMLMapper().readTree(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
