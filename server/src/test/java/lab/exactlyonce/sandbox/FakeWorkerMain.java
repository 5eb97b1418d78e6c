package lab.exactlyonce.sandbox;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.sandbox.confinement.SelfConfinement;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.SandboxLimits;
import lab.exactlyonce.sandbox.engine.WorkerRequest;
import lab.exactlyonce.sandbox.engine.WorkerResponse;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A stand-in worker that speaks the worker protocol without compiling anything, so the pool, queue and HTTP layer
 * can be tested on their own. Its "source" is a list of commands, one per line:
 * {@code print <text>}, {@code sleep <ms>}, {@code loop} (spins until the wall limit, then answers timeout, as the
 * real engine's budget would), {@code hang} (never answers: a stuck library call), {@code crash} (exits mid-run),
 * {@code answer-and-exit} (answers timeout, then exits, as the engine does after a stuck call), {@code retire}
 * (answers as usual saying it retires, then lingers 300 ms before it exits, as a damaged engine does).
 */
public final class FakeWorkerMain {
  public static void main(String[] args) throws Exception {
    SelfConfinement.applyIfAsked();   // as the real worker does, wherever the launcher asks for it
    ObjectMapper json = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true,
        StandardCharsets.UTF_8);
    // warm up the JSON mapping (a cold JVM takes a while for the first record), as the real worker warms up
    WorkerRequest sample = json.readValue(json.writeValueAsString(new WorkerRequest(0, "print x",
        SandboxLimits.defaults())), WorkerRequest.class);
    json.writeValueAsString(new WorkerResponse(sample.id(), new RunResult(Outcome.OK, "", "", List.of(), 0)));
    out.println("{\"ready\":true}");
    var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      WorkerRequest request = json.readValue(line, WorkerRequest.class);
      long start = System.nanoTime();
      StringBuilder stdout = new StringBuilder();
      Outcome outcome = Outcome.OK;
      boolean exitAfter = false;
      boolean retiring = false;
      // The sleeps and the spin below are the run itself (one that takes a while, spins, or is stuck), which the pool
      // under test must queue, time out or kill: they wait for nothing.
      for (String command : request.source().split("\n")) {
        if (command.startsWith("print ")) stdout.append(command.substring(6)).append('\n');
        else if (command.startsWith("sleep ")) Thread.sleep(Long.parseLong(command.substring(6).trim()));
        else if (command.equals("loop")) {
          while (System.nanoTime() - start < request.limits().cpuMillis() * 1_000_000) Thread.onSpinWait();
          outcome = Outcome.TIMEOUT;
          break;
        } else if (command.equals("hang")) Thread.sleep(Long.MAX_VALUE);
        else if (command.equals("crash")) System.exit(3);
        else if (command.equals("retire")) retiring = true;
        else if (command.equals("answer-and-exit")) {
          outcome = Outcome.TIMEOUT;
          exitAfter = true;
          break;
        }
      }
      long took = System.nanoTime() - start;
      out.println(json.writeValueAsString(new WorkerResponse(request.id(),
          new RunResult(outcome, stdout.toString(), "", List.of(), took / 1_000_000), retiring, took)));
      if (exitAfter) System.exit(0);
      if (retiring) {
        Thread.sleep(300);   // still alive for a while: a run sent now would be lost
        System.exit(3);
      }
    }
  }
}
