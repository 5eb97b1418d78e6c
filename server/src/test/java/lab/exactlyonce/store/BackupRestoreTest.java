package lab.exactlyonce.store;

import lab.exactlyonce.App;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BackupRestoreTest {
  /** The embedded H2 database in the data dir, also when the tests run against another ({@code -Deolab.test.jdbc-url}). */
  private static Config embedded() {
    return TestConfig.defaults().withStore(StoreSettings.embedded());
  }

  @TempDir Path tmp;

  private record Outcome(int status, String out, String err) {}

  private static Outcome restore(String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    int status = Restore.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(status, out.toString(StandardCharsets.UTF_8).strip(), err.toString(StandardCharsets.UTF_8).strip());
  }

  /** Runs the backup command in its own JVM, as a person would while the app keeps serving. */
  private static Outcome backupInAnotherProcess(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Backup.class.getName()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    return new Outcome(process.exitValue(), out, err);
  }

  private static HttpResponse<String> event(TestServer server, String cookie, String id, String item) {
    var request = HttpRequest.newBuilder(URI.create(server.url("/api/events")))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"" + id + "\",\"type\":\"section.read\",\"lesson\":\"exactly-once\",\"item\":\"" + item + "\"}"));
    if (cookie != null) request.header("Cookie", cookie);
    return server.send(request);
  }

  private static String learnerCookie(HttpResponse<String> response) {
    return response.headers().allValues("Set-Cookie").stream().map(c -> c.split(";", 2)[0])
        .filter(c -> c.startsWith("eolab_learner=")).findFirst().orElseThrow();
  }

  @Test
  void an_online_backup_restored_into_a_fresh_directory_has_the_events_and_the_same_learner_cookie() throws Exception {
    Config original = embedded();
    Path backup = tmp.resolve("backup.zip");
    String first = UUID.randomUUID().toString();
    String second = UUID.randomUUID().toString();
    String cookie;
    String firstResponse;
    try (TestServer server = TestServer.startOnDataDirAsIs(original)) {
      HttpResponse<String> made = event(server, null, first, "guarantees");
      assertEquals(200, made.statusCode(), made.body());
      firstResponse = made.body();
      cookie = learnerCookie(made);
      assertEquals(200, event(server, cookie, second, "guarantees").statusCode());

      Outcome backedUp = backupInAnotherProcess("--data-dir", original.dataDir().toString(), "--to", backup.toString());
      assertEquals(0, backedUp.status(), backedUp.err());
      assertTrue(backedUp.out().startsWith("backed up " + original.dataDir().toAbsolutePath()), backedUp.out());
      assertEquals(200, server.get("/healthz").statusCode(), "the app kept serving");

      Outcome intoRunning = restore("--data-dir", original.dataDir().toString(), "--from", backup.toString(), "--force");
      assertEquals(2, intoRunning.status());
      assertTrue(intoRunning.err().matches("restore: the data dir " + Pattern.quote(original.dataDir().toString())
          + " is in use by another Exactly-Once Lab \\(pid " + ProcessHandle.current().pid() + ", port " + server.app().port()
          + ", started [0-9T:-]+Z\\); stop it before restoring into its data directory"), intoRunning.err());
    }
    try (ZipFile zip = new ZipFile(backup.toFile())) {
      assertTrue(zip.getEntry("eolab.mv.db") != null);
      assertTrue(zip.getEntry("learner-cookie.key") != null, "the cookie key is part of the backup");
    }

    Path fresh = tmp.resolve("restored");
    Outcome restored = restore("--data-dir", fresh.toString(), "--from", backup.toString());
    assertEquals(0, restored.status(), restored.err());
    assertTrue(restored.out().startsWith("restored " + backup + " into " + fresh), restored.out());

    try (TestServer server = TestServer.startOnDataDirAsIs(new Config(original.host(), 0, fresh, original.lessonsDir(),
        original.snippetsDir(), original.sandbox(), original.store(), original.classroom(), original.share(), original.ops())
        .withClock(original.clock()))) {
      HttpResponse<String> export = server.send(HttpRequest.newBuilder(URI.create(server.url("/api/me/export")))
          .header("Cookie", cookie).GET());
      assertEquals(200, export.statusCode(), export.body());
      assertTrue(export.body().contains(first) && export.body().contains(second), export.body());
      // The same event id sent again is still recognised: exactly once survives the restore.
      HttpResponse<String> resend = event(server, cookie, first, "guarantees");
      assertEquals(200, resend.statusCode());
      assertEquals(firstResponse, resend.body());
      assertTrue(resend.headers().allValues("Set-Cookie").stream().noneMatch(c -> c.startsWith("eolab_learner=")),
          "the old cookie is still valid, so no new learner was made");
    }
  }

  @Test
  void a_backup_taken_while_learners_keep_writing_restores_every_event_acknowledged_before_it() throws Exception {
    Config original = embedded();
    Path backup = tmp.resolve("busy.zip");
    HttpResponse<String> made;
    String firstId = UUID.randomUUID().toString();
    List<String> before = new ArrayList<>();
    List<String> during = Collections.synchronizedList(new ArrayList<>());
    String cookie;
    try (TestServer server = TestServer.startOnDataDirAsIs(original)) {
      made = event(server, null, firstId, "guarantees");
      cookie = learnerCookie(made);
      for (int i = 0; i < 20; i++) {
        String id = UUID.randomUUID().toString();
        assertEquals(200, event(server, cookie, id, "guarantees").statusCode());
        before.add(id);
      }
      var stop = new AtomicBoolean();
      var failures = Collections.synchronizedList(new ArrayList<String>());
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        Thread t = new Thread(() -> {
          while (!stop.get()) {
            String id = UUID.randomUUID().toString();
            HttpResponse<String> r = event(server, cookie, id, "guarantees");
            if (r.statusCode() == 200) during.add(id);
            else failures.add(r.statusCode() + " " + r.body());
          }
        });
        t.start();
        writers.add(t);
      }
      Outcome backedUp;
      try {
        backedUp = backupInAnotherProcess("--data-dir", original.dataDir().toString(), "--to", backup.toString());
      } finally {
        stop.set(true);
        for (Thread t : writers) t.join();
      }
      assertEquals(0, backedUp.status(), backedUp.err());
      assertTrue(backedUp.out().startsWith("backed up " + original.dataDir().toAbsolutePath() + " to " + backup
          + " (from the running app; database + "), backedUp.out());
      assertEquals(List.of(), failures, "every write while the backup ran succeeded");
      assertTrue(!during.isEmpty(), "learners wrote while the backup ran");
    }
    assertEquals(Set.of(PosixFilePermission.OWNER_READ,
        PosixFilePermission.OWNER_WRITE), Files.getPosixFilePermissions(backup), "the zip is the owner's only");
    try (ZipFile zip = new ZipFile(backup.toFile())) {
      assertTrue(zip.getEntry("db-password") != null, "the database password travels with the database");
      assertTrue(zip.getEntry("eolab.instance") == null && zip.getEntry("eolab.sock") == null, "nothing of the running process");
    }

    Path fresh = tmp.resolve("restored-busy");
    assertEquals(0, restore("--data-dir", fresh.toString(), "--from", backup.toString()).status());
    try (TestServer server = TestServer.startOnDataDirAsIs(new Config(original.host(), 0, fresh, original.lessonsDir(),
        original.snippetsDir(), original.sandbox(), original.store(), original.classroom(), original.share(), original.ops())
        .withClock(original.clock()))) {
      String export = server.send(HttpRequest.newBuilder(URI.create(server.url("/api/me/export"))).header("Cookie", cookie).GET()).body();
      for (String id : before) assertTrue(export.contains(id), "event " + id + " acknowledged before the backup is restored");
      var acknowledged = new HashSet<String>(before);
      acknowledged.addAll(during);
      acknowledged.add(firstId);
      for (var e : JSON.readTree(export).get("events")) {
        assertTrue(acknowledged.contains(e.get("id").asText()), "restored only what was acknowledged: " + e);
      }
    }
  }

  @Test
  void the_backup_socket_answers_only_a_request_with_the_database_password() throws Exception {
    Config config = embedded();
    try (TestServer server = TestServer.startOnDataDirAsIs(config)) {
      Path socket = config.dataDir().resolve("eolab.sock");
      assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(socket));
      try (var channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
        channel.write(ByteBuffer.wrap("BACKUP guessed\n".getBytes(StandardCharsets.UTF_8)));
        String answer = new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
        assertEquals("ERROR the request did not carry this data dir's database password (db-password)\n", answer);
      }
      assertEquals(200, server.get("/healthz").statusCode());
    }
    assertFalse(Files.exists(config.dataDir().resolve("eolab.sock")), "the socket goes with the app");
  }

  @Test
  void a_backup_of_a_stopped_app_is_made_by_the_command_itself_which_then_lets_the_data_dir_go() throws Exception {
    Config config = embedded();
    try (TestServer server = TestServer.startOnDataDirAsIs(config)) {
      assertEquals(200, event(server, null, UUID.randomUUID().toString(), "guarantees").statusCode());
    }
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Path zip = tmp.resolve("stopped.zip");
    assertEquals(0, Backup.run(new String[] {"--data-dir", config.dataDir().toString(), "--to", zip.toString()},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)), err.toString());
    assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("backed up " + config.dataDir().toAbsolutePath() + " to " + zip
        + " (the app was not running; database + 3 files: db-password, instructor-secret, learner-cookie.key)"),
        out.toString(StandardCharsets.UTF_8));
    try (TestServer again = TestServer.startOnDataDirAsIs(config)) {
      assertEquals(200, again.get("/healthz").statusCode(), "the command let the data dir go");
    }
  }

  @Test
  void restore_refuses_a_non_empty_directory_without_force_and_moves_it_aside_with_force() throws Exception {
    Config original = embedded();
    try (TestServer server = TestServer.startOnDataDirAsIs(original)) {
      assertEquals(200, event(server, null, UUID.randomUUID().toString(), "guarantees").statusCode());
    }
    Path backup = tmp.resolve("b.zip");
    var err = new ByteArrayOutputStream();
    assertEquals(0, Backup.run(new String[] {"--data-dir", original.dataDir().toString(), "--to", backup.toString()},
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(err)), err.toString());

    Path target = tmp.resolve("busy");
    Files.createDirectories(target);
    Files.writeString(target.resolve("notes.txt"), "keep me");
    Outcome refused = restore("--data-dir", target.toString(), "--from", backup.toString());
    assertEquals(2, refused.status());
    assertEquals("restore: " + target + " is not empty; restore into an empty directory, or add --force to move the "
        + "current contents aside first", refused.err());

    Outcome forced = restore("--data-dir", target.toString(), "--from", backup.toString(), "--force");
    assertEquals(0, forced.status(), forced.err());
    assertTrue(Files.exists(target.resolve("eolab.mv.db")));
    assertFalse(Files.exists(target.resolve("notes.txt")));
    String aside = forced.out().substring(forced.out().indexOf("the previous contents are in ") + 29);
    assertEquals("keep me", Files.readString(Path.of(aside).resolve("notes.txt")));
  }

  @Test
  void mistakes_are_named() throws Exception {
    Path notABackup = tmp.resolve("other.zip");
    try (var zip = new ZipOutputStream(Files.newOutputStream(notABackup))) {
      zip.putNextEntry(new ZipEntry("hello.txt"));
      zip.write("hi".getBytes(StandardCharsets.UTF_8));
    }
    Outcome wrong = restore("--data-dir", tmp.resolve("x").toString(), "--from", notABackup.toString());
    assertEquals("restore: " + notABackup + " is not a backup of this app: it holds no eolab.mv.db", wrong.err());
    assertEquals("restore: usage: java -cp exactly-once-lab.jar lab.exactlyonce.store.Restore --data-dir DIR --from FILE.zip [--force]",
        restore("--data-dir", "x").err());
    var err = new ByteArrayOutputStream();
    int status = Backup.run(new String[] {"--data-dir", tmp.resolve("empty").toString(), "--to", tmp.resolve("o.zip").toString()},
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, status);
    assertEquals("backup: no database in " + tmp.resolve("empty") + " (expected eolab.mv.db)", err.toString(StandardCharsets.UTF_8).strip());

    Config config = embedded();
    new App(config).stop();
    var inside = new ByteArrayOutputStream();
    Path into = config.dataDir().toAbsolutePath().resolve("backup.zip");
    assertEquals(2, Backup.run(new String[] {"--data-dir", config.dataDir().toString(), "--to", into.toString()},
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(inside, true, StandardCharsets.UTF_8)));
    assertEquals("backup: " + into + " is inside the data dir " + config.dataDir().toAbsolutePath() + "; write the backup "
        + "outside it (one inside would be copied into every later backup)", inside.toString(StandardCharsets.UTF_8).strip());
  }
}
