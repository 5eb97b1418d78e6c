package lab.exactlyonce.sandbox.confinement;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The one step an instructor's page names below hardened, for each kind of host the docs describe. */
class NextStepTest {
  static Stream<Arguments> hosts() {
    return Stream.of(
        arguments("hardened already", ConfinementLevel.HARDENED, true, host("Linux", false, true, true, true), ""),
        arguments("--sandbox-confinement none", ConfinementLevel.NONE, false, host("Linux", false, true, true, true),
            "start the app without --sandbox-confinement none"),
        arguments("macOS", ConfinementLevel.NONE, true, host("Mac OS X", false, false, true, false),
            "Mac OS X has no Linux namespaces: host the class from the Docker image (docs/sandbox.md, \"Docker\")"),
        arguments("bubblewrap turned off", ConfinementLevel.NETWORK, true, host("Linux", false, true, false, false),
            "start the app without --sandbox-bubblewrap off"),
        arguments("bare host as root without bubblewrap", ConfinementLevel.NETWORK, true,
            host("Linux", false, false, true, true), "install bubblewrap (Debian: apt-get install bubblewrap)"),
        arguments("unprivileged without bubblewrap", ConfinementLevel.NETWORK, true,
            host("Linux", false, false, true, false),
            "install bubblewrap (Debian: apt-get install bubblewrap), or start the app as root"),
        arguments("Docker's default profile", ConfinementLevel.NETWORK, true, host("Linux", true, true, true, true),
            "run the container with --security-opt seccomp=docs/docker/seccomp-sandbox.json (docs/sandbox.md, "
                + "\"Docker\")"),
        arguments("unprivileged, user namespaces off", ConfinementLevel.NETWORK, true,
            host("Linux", false, true, true, false),
            "allow unprivileged user namespaces (docs/sandbox.md, \"Unprivileged\"), or start the app as root"));
  }

  static NextStep.Host host(String os, boolean container, boolean installed, boolean allowed, boolean root) {
    return new NextStep.Host(os, container, installed, allowed, root);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hosts")
  void names_the_one_step_that_adds_what_is_missing(String where, ConfinementLevel level, boolean probed,
                                                    NextStep.Host host, String step) {
    assertEquals(step, NextStep.toHardened(level, probed, host));
  }
}
