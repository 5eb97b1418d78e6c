package lab.exactlyonce.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.UUID;

/**
 * How the backup command asks a running app for a backup without any network port: a local (Unix-domain) socket,
 * {@value #SOCKET} in the data directory, which only the directory's owner can reach (the directory is 0700, the
 * socket 0600), and a request that must also carry the database password from {@link DatabasePassword#FILE}. The app
 * answers with the whole backup zip, made by its own connection with H2's online {@code BACKUP TO} while it keeps
 * serving. One request per connection:
 * <pre>
 *   client: BACKUP &lt;password&gt;\n
 *   app:    OK &lt;bytes&gt; &lt;side files, comma-separated&gt;\n&lt;the zip&gt;   or   ERROR &lt;one line&gt;\n
 * </pre>
 */
final class BackupChannel implements AutoCloseable {
  static final String SOCKET = "eolab.sock";
  /** The longest line either side sends (the answer names the side files). */
  private static final int MAX_LINE = 64 * 1024;

  /** Makes a backup zip at the path given, returning the side files it holds. */
  @FunctionalInterface
  interface Snapshot {
    List<Path> writeTo(Path zip) throws Exception;
  }

  private final Path socket;
  private final ServerSocketChannel server;
  private final Thread thread;

  private BackupChannel(Path socket, ServerSocketChannel server, DataDirectory data, String password, Snapshot snapshot) {
    this.socket = socket;
    this.server = server;
    this.thread = new Thread(() -> serve(data, password, snapshot), "eolab-backup-channel");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Opens the socket in {@code data}; the caller holds the directory's {@link InstanceLock}, so a socket file found
   * there is one a crashed process left.
   *
   * @throws IOException when the socket cannot be made (for one, a path longer than the OS allows for a socket)
   */
  static BackupChannel open(DataDirectory data, String password, Snapshot snapshot) throws IOException {
    Path socket = data.path().resolve(SOCKET);
    Files.deleteIfExists(socket);
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      server.bind(UnixDomainSocketAddress.of(socket));
      DataDirectory.ownerOnly(socket);
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
    }
    return new BackupChannel(socket, server, data, password, snapshot);
  }

  private void serve(DataDirectory data, String password, Snapshot snapshot) {
    while (server.isOpen()) {
      try (SocketChannel client = server.accept()) {
        answer(Channels.newInputStream(client), Channels.newOutputStream(client), data, password, snapshot);
      } catch (IOException e) {
        if (server.isOpen()) System.err.println("backup channel: " + e.getMessage());
      }
    }
  }

  private static void answer(InputStream in, OutputStream out, DataDirectory data, String password, Snapshot snapshot)
      throws IOException {
    String request = line(in);
    String expected = "BACKUP " + password;
    if (!MessageDigest.isEqual(request.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8))) {
      out.write(("ERROR the request did not carry this data dir's database password (" + DatabasePassword.FILE + ")\n")
          .getBytes(StandardCharsets.UTF_8));
      return;
    }
    Path work = data.path().resolve(DataDirectory.BACKUP_WORK_PREFIX + UUID.randomUUID());
    try {
      Files.createDirectory(work);
      DataDirectory.ownerOnly(work);
      Path zip = work.resolve("backup.zip");
      List<Path> sideFiles;
      try {
        sideFiles = snapshot.writeTo(zip);
      } catch (Exception e) {
        out.write(("ERROR the app could not make the backup: " + oneLine(e) + "\n").getBytes(StandardCharsets.UTF_8));
        return;
      }
      out.write(("OK " + Files.size(zip) + " " + String.join(",", sideFiles.stream().map(Path::toString).toList()) + "\n")
          .getBytes(StandardCharsets.UTF_8));
      Files.copy(zip, out);
      out.flush();
    } finally {
      DataDirectory.deleteTree(work);
    }
  }

  /** What the app sent back: the side files in the zip, which was written to {@code to}. */
  record Received(List<String> sideFiles) {}

  /**
   * Asks the app serving {@code data} for a backup and writes it to {@code to}.
   *
   * @throws Backup.CommandException with the app's one-line reason when it refused or failed
   */
  static Received request(DataDirectory data, String password, Path to) throws IOException {
    try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(data.path().resolve(SOCKET)))) {
      OutputStream out = Channels.newOutputStream(channel);
      out.write(("BACKUP " + password + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = Channels.newInputStream(channel);
      String header = line(in);
      if (header.startsWith("ERROR ")) throw new Backup.CommandException(header.substring("ERROR ".length()));
      String[] parts = header.split(" ", 3);
      if (parts.length < 2 || !parts[0].equals("OK")) throw new IOException("the app answered '" + header + "'");
      long size = Long.parseLong(parts[1]);
      try (OutputStream file = Files.newOutputStream(to)) {
        long copied = in.transferTo(file);
        if (copied != size) throw new IOException("the app sent " + copied + " of " + size + " bytes");
      }
      return new Received(parts.length < 3 || parts[2].isEmpty() ? List.of() : List.of(parts[2].split(",")));
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) throw new IOException("the connection ended before a whole line");
      if (bytes.size() >= MAX_LINE) throw new IOException("a line longer than " + MAX_LINE + " bytes");
      bytes.write(b);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static String oneLine(Exception e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return m.lines().findFirst().orElse(m);
  }

  @Override
  public void close() {
    try {
      server.close();
      thread.join(5_000);
      Files.deleteIfExists(socket);
    } catch (IOException e) {
      // the socket file is removed at the next start
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
