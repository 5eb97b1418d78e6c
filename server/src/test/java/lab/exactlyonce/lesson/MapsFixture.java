package lab.exactlyonce.lesson;

import lab.exactlyonce.ContentFolder;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.snippet.SnippetCatalog;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Optional;

/** The maps test lesson ({@code src/test/resources/maps-fixture/exactly-once}): three maps and the two-phase flow. */
final class MapsFixture {
  private MapsFixture() {}

  static Path lessonsDir() {
    try {
      return Path.of(MapsFixture.class.getResource("/maps-fixture").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static TestServer server() {
    return TestServer.start(TestConfig.defaults().withLessonsDir(lessonsDir()));
  }

  static Lesson lesson() {
    return LessonCatalog.load(lessonsDir(),
        SnippetCatalog.load(ContentFolder.resolve(Optional.empty(), "snippets"))::idsIn).require("exactly-once");
  }
}
