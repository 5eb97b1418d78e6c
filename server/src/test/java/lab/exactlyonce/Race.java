package lab.exactlyonce;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/** Requests fired at once: one thread each, all released together by a barrier, answers in request order. */
public final class Race {
  private Race() {}

  public static <T> List<T> run(int count, IntFunction<T> request) throws Exception {
    CyclicBarrier start = new CyclicBarrier(count);
    ExecutorService threads = Executors.newFixedThreadPool(count);
    try {
      List<Future<T>> answers = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int index = i;
        answers.add(threads.submit(() -> {
          start.await(30, TimeUnit.SECONDS);
          return request.apply(index);
        }));
      }
      List<T> out = new ArrayList<>();
      for (Future<T> answer : answers) out.add(answer.get(120, TimeUnit.SECONDS));
      return out;
    } finally {
      threads.shutdownNow();
    }
  }

  /** One request of a race: which of the race's ids it sends (requests with the same index resend one id) and what. */
  public record Send(int id, int choice) {}

  /** {@code count} requests, request {@code i} sending id {@code id.apply(i)} with choice {@code choice.apply(i)}. */
  public static List<Send> sends(int count, IntFunction<Integer> id, IntFunction<Integer> choice) {
    List<Send> out = new ArrayList<>();
    for (int i = 0; i < count; i++) out.add(new Send(id.apply(i), choice.apply(i)));
    return List.copyOf(out);
  }
}
