package lab.exactlyonce.sandbox;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The runs waiting for a worker: bounded, and fair between clients. Not thread-safe: the {@link Sandbox} calls it
 * under its lock.
 *
 * <p>A client is whoever sends the run; the HTTP layer names it by {@code web.ClientKeys}: the learner of a request
 * with a learner cookie, so every student of a class behind one NAT address has a turn of their own, and the network
 * (the address, through {@code --trusted-proxies} behind a proxy; an IPv6 client's /64) for requests without one.
 *
 * <p>The policy:
 * <ul>
 *   <li><b>Round robin.</b> Clients with waiting runs take turns: each turn starts the oldest run of the next
 *   client in line, then that client goes to the back of the line. A client that sends ten runs gets one turn in
 *   ten, not ten turns in a row.</li>
 *   <li><b>One at a time per client.</b> A client never has two runs executing at once; its next run waits until
 *   the previous one has finished.</li>
 *   <li><b>Caps.</b> A client may have at most {@code perClientCap} runs waiting or running; the queue holds at
 *   most {@code capacity} waiting runs over all clients. Beyond either, {@link #offer} refuses the run (the HTTP
 *   layer answers 429 with {@code Retry-After}).</li>
 *   <li><b>Light, new and heavy clients.</b> The queue remembers how each client's last run went. A client whose
 *   last run hit a limit (timeout, memory, a killed or crashed worker) or ran on its worker longer than the heavy
 *   threshold is <em>heavy</em>; one whose last run was quick is <em>light</em>; one it has not seen is
 *   <em>new</em>. The {@link Sandbox} keeps a lane of {@code heavyWorkers} workers for heavy clients, which never
 *   run anywhere else, so one student's {@code while (true) {}} cannot slow the class down. New clients' code is
 *   unknown: they run in the heavy lane when it is free, and otherwise may hold all light workers but one, so a
 *   wave of first runs that all loop still leaves a worker for light clients. A heavy client becomes light again
 *   after one quick run. {@link #next} asks the caller which kinds may start now.</li>
 * </ul>
 *
 * @param <J> the run
 */
final class RunQueue<J> {
  private static final int REMEMBERED_CLIENTS = 10_000;

  private final int capacity;
  private final int perClientCap;
  private final Map<String, Client<J>> clients = new HashMap<>();
  /** Clients with waiting runs, in turn order. */
  private final ArrayDeque<String> line = new ArrayDeque<>();
  /** Heavy clients, least recently used first, bounded so that a flood of addresses cannot grow it forever. */
  private final Map<String, Boolean> heavy = remembered();
  /** Light clients, likewise bounded; a forgotten client is simply new again. */
  private final Map<String, Boolean> light = remembered();
  private int waiting;

  RunQueue(int capacity, int perClientCap) {
    this.capacity = capacity;
    this.perClientCap = perClientCap;
  }

  /** Why a run was refused, and how many runs are ahead of the caller's next chance. */
  record Refusal(String reason, int runsAhead) {}

  /** Adds a run, or says why not. */
  Optional<Refusal> offer(String client, J run) {
    Client<J> c = clients.get(client);
    int own = c == null ? 0 : c.waiting.size() + (c.running ? 1 : 0);
    if (own >= perClientCap) {
      return Optional.of(new Refusal("you already have " + own + " runs waiting or running (the limit is "
          + perClientCap + "); wait for them to finish", own));
    }
    if (waiting >= capacity) {
      return Optional.of(new Refusal("the sandbox is busy: " + waiting + " runs are waiting", waiting));
    }
    if (c == null) {
      c = new Client<>();
      clients.put(client, c);
    }
    if (c.waiting.isEmpty()) line.addLast(client);
    c.waiting.addLast(run);
    waiting++;
    return Optional.empty();
  }

  /** Puts a run that could not start back at the head of the queue, regardless of the caps. */
  void offerFirst(String client, J run) {
    Client<J> c = clients.computeIfAbsent(client, k -> new Client<>());
    if (c.waiting.isEmpty()) line.addFirst(client);
    c.waiting.addFirst(run);
    waiting++;
  }

  /** What the queue knows about a client from its last run. */
  enum Kind {
    /** Its last run was quick and hit no limit. */
    LIGHT,
    /** No run remembered: its code is unknown. */
    NEW,
    /** Its last run hit a limit or ran long. */
    HEAVY
  }

  /** A run taken off the queue, with its client and what that client was when the run started. */
  record Taken<J>(String client, J run, Kind kind) {}

  /**
   * Takes the next run in turn order, skipping clients that are already running and clients of a kind that
   * {@code allowed} refuses now. The taken run's client counts as running until {@link #finished}.
   */
  Optional<Taken<J>> next(Predicate<Kind> allowed) {
    for (Iterator<String> it = line.iterator(); it.hasNext(); ) {
      String key = it.next();
      Client<J> c = clients.get(key);
      if (c.running) continue;
      Kind kind = kindOf(key);
      if (!allowed.test(kind)) continue;
      it.remove();
      J run = c.waiting.removeFirst();
      waiting--;
      c.running = true;
      if (!c.waiting.isEmpty()) line.addLast(key);
      return Optional.of(new Taken<>(key, run, kind));
    }
    return Optional.empty();
  }

  /** The client's running run ended; {@code wasHeavy} says whether it hit a limit or ran long. */
  void finished(String client, boolean wasHeavy) {
    release(client);
    markHeavy(client, wasHeavy);
  }

  /** The client no longer has a run executing (it did not finish: it goes back to the queue). */
  void release(String client) {
    Client<J> c = clients.get(client);
    if (c != null) {
      c.running = false;
      if (c.waiting.isEmpty()) clients.remove(client);
    }
  }

  /** Remembers the client as heavy or light after a run. */
  void markHeavy(String client, boolean isHeavy) {
    if (isHeavy) {
      heavy.put(client, Boolean.TRUE);
      light.remove(client);
    } else {
      light.put(client, Boolean.TRUE);
      heavy.remove(client);
    }
  }

  Kind kindOf(String client) {
    if (heavy.containsKey(client)) return Kind.HEAVY;
    return light.containsKey(client) ? Kind.LIGHT : Kind.NEW;
  }

  /** Removes a waiting run (it gave up waiting); true if it was still waiting. */
  boolean remove(String client, J run) {
    Client<J> c = clients.get(client);
    if (c == null || !c.waiting.remove(run)) return false;
    waiting--;
    if (c.waiting.isEmpty()) {
      line.remove(client);
      if (!c.running) clients.remove(client);
    }
    return true;
  }

  private static Map<String, Boolean> remembered() {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
        return size() > REMEMBERED_CLIENTS;
      }
    };
  }

  int waiting() {
    return waiting;
  }

  /** Takes every waiting run out, for shutdown. */
  Map<String, ArrayDeque<J>> drain() {
    var all = new LinkedHashMap<String, ArrayDeque<J>>();
    clients.forEach((key, c) -> {
      if (!c.waiting.isEmpty()) all.put(key, new ArrayDeque<>(c.waiting));
      c.waiting.clear();
    });
    line.clear();
    waiting = 0;
    return all;
  }

  private static final class Client<J> {
    final ArrayDeque<J> waiting = new ArrayDeque<>();
    boolean running;
  }
}
