package lab.exactlyonce.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of several app nodes, as a load balancer with health checks would be: each connection goes
 * to the next node in turn, and to the one after when a node refuses it (a node that died), so a client that
 * reconnects lands on a live node. The connection to the node leaves from the client's own loopback address, so the
 * app's per-address limits see the students as they would behind a proxy that passes the client's address on.
 */
final class FailoverProxy implements AutoCloseable {
  private final List<InetSocketAddress> nodes;
  private final ServerSocket server;
  private final AtomicInteger next = new AtomicInteger();
  private final Thread acceptor;

  FailoverProxy(List<InetSocketAddress> nodes) throws IOException {
    this.nodes = List.copyOf(nodes);
    this.server = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "failover-proxy");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return server.getLocalPort();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Thread t = new Thread(() -> serve(client), "failover-proxy-connection");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        if (!server.isClosed()) System.err.println("failover proxy: " + e.getMessage());
      }
    }
  }

  private void serve(Socket client) {
    Socket node = connect(client.getInetAddress());
    if (node == null) {
      closeQuietly(client);
      return;
    }
    Thread up = new Thread(() -> pipe(client, node), "failover-proxy-up");
    up.setDaemon(true);
    up.start();
    pipe(node, client);
  }

  /** The next node that takes a connection, tried in turn; null when none does. */
  private Socket connect(InetAddress from) {
    int start = Math.floorMod(next.getAndIncrement(), nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      InetSocketAddress target = nodes.get((start + i) % nodes.size());
      Socket node = new Socket();
      try {
        node.bind(new InetSocketAddress(from, 0));
        node.connect(target, 2_000);
        node.setTcpNoDelay(true);
        return node;
      } catch (IOException e) {
        closeQuietly(node);
      }
    }
    return null;
  }

  /** Copies one direction until it ends, then ends both (a node that died ends its clients' connections). */
  private static void pipe(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (SocketException e) {
      // the other side went away: end both
    } catch (IOException e) {
      System.err.println("failover proxy: " + e.getMessage());
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing what is already gone
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
