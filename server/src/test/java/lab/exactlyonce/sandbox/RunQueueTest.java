package lab.exactlyonce.sandbox;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunQueueTest {
  final RunQueue<String> queue = new RunQueue<>(100, 10);

  String take() {
    var taken = queue.next(kind -> true).orElseThrow();
    queue.finished(taken.client(), false);
    return taken.run();
  }

  @Test
  void clients_take_turns_however_many_runs_one_of_them_sends() {
    for (int i = 1; i <= 4; i++) queue.offer("flood", "f" + i);
    queue.offer("ann", "a1");
    queue.offer("bob", "b1");
    queue.offer("ann", "a2");
    List<String> order = new ArrayList<>();
    for (int i = 0; i < 7; i++) order.add(take());
    assertEquals(List.of("f1", "a1", "b1", "f2", "a2", "f3", "f4"), order);
  }

  @Test
  void a_client_never_has_two_runs_executing() {
    queue.offer("ann", "a1");
    queue.offer("ann", "a2");
    assertEquals("a1", queue.next(kind -> true).orElseThrow().run());
    assertTrue(queue.next(kind -> true).isEmpty());
    queue.finished("ann", false);
    assertEquals("a2", queue.next(kind -> true).orElseThrow().run());
  }

  @Test
  void clients_are_new_then_light_or_heavy_by_their_last_run() {
    queue.offer("ann", "a1");
    assertEquals(RunQueue.Kind.NEW, queue.next(kind -> true).orElseThrow().kind());
    queue.finished("ann", true);
    queue.offer("ann", "a2");
    queue.offer("bob", "b1");
    var taken = queue.next(kind -> kind != RunQueue.Kind.HEAVY).orElseThrow();
    assertEquals("b1", taken.run(), "the heavy client is passed over when heavy runs may not start");
    queue.finished("bob", false);
    assertEquals(RunQueue.Kind.LIGHT, queue.kindOf("bob"));
    assertEquals(RunQueue.Kind.HEAVY, queue.next(kind -> true).orElseThrow().kind());
  }

  @Test
  void caps_refuse_with_a_reason() {
    var small = new RunQueue<String>(2, 2);
    assertTrue(small.offer("ann", "a1").isEmpty());
    assertTrue(small.offer("ann", "a2").isEmpty());
    assertEquals("you already have 2 runs waiting or running (the limit is 2); wait for them to finish",
        small.offer("ann", "a3").orElseThrow().reason());
    assertEquals("the sandbox is busy: 2 runs are waiting", small.offer("bob", "b1").orElseThrow().reason());
  }
}
