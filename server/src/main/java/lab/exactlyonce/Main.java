package lab.exactlyonce;

import lab.exactlyonce.lesson.LessonFormatException;
import lab.exactlyonce.sandbox.confinement.ConfinementException;
import lab.exactlyonce.store.StoreException;

import java.util.List;

/** Starts the app from the command line; every start-up mistake becomes one readable line. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      System.out.print(Config.help());
      return;
    }
    App app;
    try {
      app = new App(Config.from(args, System.getenv()));
    } catch (Config.ConfigException | LessonFormatException | StoreException e) {
      System.err.println("exactly-once-lab: " + e.getMessage());
      System.exit(2);
      return;
    }
    try {
      app.start();   // the port may be taken, or the sandbox's confinement self-check may refuse
    } catch (ConfinementException | App.StartException e) {
      System.err.println("exactly-once-lab: " + e.getMessage());
      app.stop();
      System.exit(2);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("Exactly-Once Lab is stopping: finishing requests in flight, then closing");
      app.stop();
      System.out.println("Exactly-Once Lab has stopped");
    }, "shutdown"));
    app.startupLines().forEach(System.out::println);
  }
}
