package lab.exactlyonce.sandbox.confinement;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The self-check's inside: started through a candidate launcher exactly as a worker would be, it tries what a
 * learner who got past the bytecode allowlist must not manage, reads what the kernel says about itself, prints one
 * JSON line and then waits for standard input to close (so the server can look at it from outside meanwhile).
 * Trusted code: it runs no learner input, only the server's arguments.
 *
 * <p>Arguments: {@code --connect PORT} (a loopback port the server listens on), {@code --read PATH} (repeatable: a
 * file only the server may read), {@code --write DIR} (a directory that must stay read-only, such as java.home),
 * {@code --kill PID} (a process outside the sandbox), {@code --unshare PATH} (the {@code unshare} tool, to try a
 * nested user namespace).
 */
public final class ConfinementProbe {
  private ConfinementProbe() {
  }

  public static void main(String[] args) throws IOException {
    SelfConfinement.applyIfAsked();   // exactly as a worker does, so the probe sees what a worker will be
    Map<String, String> status;
    try {
      status = status(Path.of("/proc/self/status"));
    } catch (IOException | RuntimeException e) {
      status = Map.of();   // no /proc inside: the server reads the status from outside instead
    }
    var namespaces = new LinkedHashMap<String, String>();
    for (String ns : List.of("net", "mnt", "pid", "user", "ipc", "uts", "cgroup")) {
      try {
        namespaces.put(ns, Files.readSymbolicLink(Path.of("/proc/self/ns/" + ns)).toString());
      } catch (IOException | RuntimeException e) {
        // unreadable: left out
      }
    }
    List<Attempt> attempts = new ArrayList<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      String value = args[i + 1];
      attempts.add(switch (args[i]) {
        case "--connect" -> connect(Integer.parseInt(value));
        case "--read" -> read(Path.of(value));
        case "--write" -> write(Path.of(value));
        case "--kill" -> kill(Long.parseLong(value));
        case "--unshare" -> nestedUserNamespace(value);
        default -> new Attempt("unknown " + args[i], false, "not tried");
      });
    }
    attempts.add(internetSocket());
    StringBuilder json = new StringBuilder("{\"status\":").append(object(status))
        .append(",\"ns\":").append(object(namespaces))
        .append(",\"env\":").append(array(new TreeSet<>(System.getenv().keySet())))
        .append(",\"attempts\":[");
    for (int i = 0; i < attempts.size(); i++) {
      Attempt a = attempts.get(i);
      if (i > 0) json.append(',');
      json.append("{\"what\":").append(quote(a.what())).append(",\"done\":").append(a.done())
          .append(",\"detail\":").append(quote(a.detail())).append('}');
    }
    json.append("]}\n");
    System.out.write(json.toString().getBytes(StandardCharsets.UTF_8));
    System.out.flush();
    while (System.in.read() >= 0) {
      // wait for the server to close standard input
    }
  }

  /** What a {@code /proc/<pid>/status} file says of confinement: the real {@code Uid}, CapEff, NoNewPrivs, Seccomp. */
  static Map<String, String> status(Path statusFile) throws IOException {
    var status = new LinkedHashMap<String, String>();
    for (String line : Files.readAllLines(statusFile)) {
      for (String key : List.of("Uid", "CapEff", "NoNewPrivs", "Seccomp")) {
        if (line.startsWith(key + ":")) status.put(key, line.substring(key.length() + 1).trim().split("\\s+")[0]);
      }
    }
    return status;
  }

  /** One thing tried: whether it was done (what must not happen), and what the system said. */
  record Attempt(String what, boolean done, String detail) {}

  static Attempt connect(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
      return new Attempt("connect", true, "connected to 127.0.0.1:" + port);
    } catch (IOException | RuntimeException e) {
      return new Attempt("connect", false, e.toString());
    }
  }

  static Attempt internetSocket() {
    try (SocketChannel channel = SocketChannel.open()) {
      return new Attempt("inet-socket", true, "created " + channel);
    } catch (IOException | RuntimeException e) {
      return new Attempt("inet-socket", false, e.toString());
    }
  }

  static Attempt read(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      return new Attempt("read " + file, true, "read " + bytes.length + " bytes");
    } catch (IOException | RuntimeException e) {
      return new Attempt("read " + file, false, e.toString());
    }
  }

  static Attempt write(Path dir) {
    try {
      Path file = Files.createTempFile(dir, "confinement-probe", ".tmp");
      Files.delete(file);
      return new Attempt("write " + dir, true, "created and deleted " + file);
    } catch (IOException | RuntimeException e) {
      return new Attempt("write " + dir, false, e.toString());
    }
  }

  static Attempt kill(long pid) {
    ProcessHandle self = ProcessHandle.current();
    var target = ProcessHandle.of(pid);
    if (target.isEmpty()) return new Attempt("kill " + pid, false, "no process " + pid + " visible");
    for (var p = Optional.of(self); p.isPresent(); p = p.get().parent()) {
      // in a pid namespace the number may be one of ours: never signal ourselves or our parents
      if (p.get().pid() == pid) return new Attempt("kill " + pid, false, "pid " + pid + " is this probe or its parent here");
    }
    try {
      boolean sent = target.get().destroyForcibly();
      return new Attempt("kill " + pid, sent, sent ? "SIGKILL sent" : "refused");
    } catch (RuntimeException e) {
      return new Attempt("kill " + pid, false, e.toString());
    }
  }

  static Attempt nestedUserNamespace(String unshare) {
    try {
      Process p = new ProcessBuilder(unshare, "--user", "true").redirectErrorStream(true).start();
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Attempt("user-namespace", false, "unshare did not finish in 5 s");
      }
      String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return p.exitValue() == 0
          ? new Attempt("user-namespace", true, "unshare --user true succeeded")
          : new Attempt("user-namespace", false, "refused: " + said);
    } catch (IOException e) {
      return new Attempt("user-namespace", false, "could not run " + unshare + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Attempt("user-namespace", false, "interrupted");
    }
  }

  private static String object(Map<String, String> map) {
    StringBuilder out = new StringBuilder("{");
    map.forEach((k, v) -> out.append(out.length() > 1 ? "," : "").append(quote(k)).append(':').append(quote(v)));
    return out.append('}').toString();
  }

  private static String array(Iterable<String> values) {
    StringBuilder out = new StringBuilder("[");
    for (String v : values) out.append(out.length() > 1 ? "," : "").append(quote(v));
    return out.append(']').toString();
  }

  static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    return out.append('"').toString();
  }
}
