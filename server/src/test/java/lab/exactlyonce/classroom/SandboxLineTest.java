package lab.exactlyonce.classroom;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The instructor's line about the sandbox: one line at hardened, what is missing and the step below it. */
class SandboxLineTest {
  @Test
  void hardened_is_one_line() {
    assertEquals("<p class=\"sandbox-level\">Sandbox: <strong>hardened</strong> (students&#x27; code runs in "
            + "namespaces of its own, as uids of its own, under a seccomp filter)</p>",
        ClassroomPages.sandboxLine(new SandboxNotice("hardened", List.of(), "")).render());
  }

  @Test
  void below_hardened_names_what_is_missing_and_the_one_step_that_adds_it() {
    var docker = new SandboxNotice("network", List.of("own net namespace", "own mnt namespace", "own pid namespace"),
        "run the container with --security-opt seccomp=docs/docker/seccomp-sandbox.json");
    assertEquals("<div class=\"sandbox-level sandbox-weak\" role=\"note\"><p>Sandbox: <strong>network</strong>, below "
            + "hardened. Missing: own net namespace, own mnt namespace, own pid namespace.</p><p>To add it: run the "
            + "container with --security-opt seccomp=docs/docker/seccomp-sandbox.json.</p></div>",
        ClassroomPages.sandboxLine(docker).render());
  }

  @Test
  void before_the_self_check_it_says_so() {
    assertEquals("<p class=\"sandbox-level\">Sandbox: not started yet (its self-check runs with the first run).</p>",
        ClassroomPages.sandboxLine(SandboxNotice.notStarted()).render());
  }
}
