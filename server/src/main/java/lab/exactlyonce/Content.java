package lab.exactlyonce;

import lab.exactlyonce.exercise.ExerciseCatalog;
import lab.exactlyonce.exercise.ExerciseViews;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.lesson.MapViews;
import lab.exactlyonce.lesson.TabViews;
import lab.exactlyonce.progress.ProgressPageData;
import lab.exactlyonce.rubric.RubricCatalog;
import lab.exactlyonce.rubric.RubricPageData;
import lab.exactlyonce.snippet.SnippetCatalog;
import lab.exactlyonce.snippet.SnippetViews;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * The lessons, snippets, rubrics and exercises the app serves, loaded and checked, and the views built from them.
 * Loading them touches no data directory and starts nothing, so it may run beside the database's opening.
 */
record Content(Path lessonsDir, Path snippetsDir, SnippetCatalog snippets, LessonCatalog lessons,
               RubricCatalog rubrics, ExerciseCatalog exercises, TabViews views) {

  /** Loads and checks the content {@code config} names; a mistake in it is a {@code LessonFormatException}. */
  static Content load(Config config) {
    Path snippetsDir = ContentFolder.resolve(config.snippetsDir(), "snippets");
    SnippetCatalog snippets = SnippetCatalog.load(snippetsDir);
    Path lessonsDir = ContentFolder.resolve(config.lessonsDir(), "lessons");
    LessonCatalog lessons = LessonCatalog.load(lessonsDir, snippets::idsIn);
    RubricCatalog rubrics = RubricCatalog.load(lessonsDir, lessons);
    ExerciseCatalog exercises = ExerciseCatalog.load(snippetsDir);
    TabViews views = new TabViews(new MapViews(), new SnippetViews(snippets), new ExerciseViews(exercises),
        new ProgressPageData().and(new RubricPageData(rubrics)));
    return new Content(lessonsDir, snippetsDir, snippets, lessons, rubrics, exercises, views);
  }

  /**
   * Starts {@link #load} on a thread of its own, which ends with it: on two cores the content's parsing and the
   * database's opening take about as long each, and the first page waits for both.
   */
  static CompletableFuture<Content> loadAside(Config config) {
    CompletableFuture<Content> loaded = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        loaded.complete(load(config));
      } catch (Throwable e) {
        loaded.completeExceptionally(e);
      }
    }, "content-loading");
    thread.setDaemon(true);
    thread.start();
    return loaded;
  }

  /** The loaded content, or the loading's own exception, unwrapped, as if loaded on the caller's thread. */
  static Content await(CompletableFuture<Content> loading) {
    try {
      return loading.join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) throw cause;
      if (e.getCause() instanceof Error error) throw error;
      throw e;
    }
  }
}
