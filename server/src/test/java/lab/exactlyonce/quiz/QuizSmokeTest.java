package lab.exactlyonce.quiz;

import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;

class QuizSmokeTest {
  @Test
  void smoke() throws Exception {
    try (TestServer server = TestServer.start()) {
      QuizClient c = new QuizClient(server);
      System.out.println(c.get("/api/quiz/lessons/exactly-once").body().substring(0, 3000));
      long t = System.nanoTime();
      for (int i = 0; i < 120 && !c.get("/api/quiz/lessons/exactly-once").body().contains("\"predictionsReady\":true"); i++) Thread.sleep(500);
      System.out.println("ready after ms " + (System.nanoTime() - t) / 1_000_000);
      String body = c.get("/api/quiz/lessons/exactly-once").body();
      int i = body.indexOf("\"kind\":\"predict\"");
      System.out.println(i < 0 ? "NO PREDICT" : body.substring(Math.max(0, i - 200), Math.min(body.length(), i + 2500)));
      System.out.println(c.get("/lessons/exactly-once/quiz").body());
    }
  }
}
