package lab.exactlyonce.web;

import io.javalin.http.Context;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Answers a request from a future that most often completes within a millisecond or two (a cached sandbox run).
 * Going asynchronous costs about a millisecond on its own: the servlet's async start, then the completion handed
 * back to the server's threads. So the request's thread first waits briefly, and answers at once if the future is
 * done by then; only a longer wait (a first compile, a run that loops, a full queue) releases the thread. The brief
 * wait bounds what one request holds a thread for, so slow runs still cannot tie up the server's threads.
 */
public final class FutureAnswers {
  /** Long enough for a cached run and its round trip to the worker; short beside every other run. */
  static final long BRIEF_WAIT_MICROS = 5_000;

  private FutureAnswers() {
  }

  /** Calls {@code answer} with the future's value, on this thread if it comes within the brief wait. */
  public static <T> void answer(Context ctx, CompletableFuture<T> future, Consumer<T> answer) {
    T value;
    try {
      value = future.get(BRIEF_WAIT_MICROS, TimeUnit.MICROSECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // still running, or failed: the asynchronous path answers both, failures through the error mappers
      ctx.future(() -> future.thenAccept(answer));
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ctx.future(() -> future.thenAccept(answer));
      return;
    }
    answer.accept(value);
  }
}
