package lab.exactlyonce.store;

import lab.exactlyonce.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a node accepts of the messages on the nodes' channel: only what a node sealed, once, while it is fresh. */
class SignalSealTest {
  private final Database db = TestDatabase.open();
  private final TestClock clock = new TestClock().stop();
  private final SignalSeal node = SignalSeal.load(db, clock);
  private final SignalSeal otherNode = SignalSeal.load(db, clock);

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void a_message_another_node_sealed_opens_once() {
    String sealed = otherNode.seal("{\"kind\":\"reveal\"}");
    assertEquals(Optional.of("{\"kind\":\"reveal\"}"), node.open(sealed));
    assertEquals(Optional.empty(), node.open(sealed), "the same seal heard again is a replay");
  }

  @Test
  void a_message_older_than_the_fresh_time_is_refused() {
    String sealed = otherNode.seal("{}");
    clock.advance(SignalSeal.FRESH.plusMillis(1));
    assertEquals(Optional.empty(), node.open(sealed));
  }

  @Test
  void an_edited_message_unsealed_text_and_a_foreign_key_are_refused() {
    String sealed = otherNode.seal("{\"kind\":\"question\",\"arg\":\"r1\"}");
    assertEquals(Optional.empty(), node.open(sealed.replace("r1", "r2")), "edited after sealing");
    assertEquals(Optional.empty(), node.open("{\"kind\":\"question\"}"), "not sealed at all");
    try (Database another = TestDatabase.open()) {
      assertEquals(Optional.empty(), node.open(SignalSeal.load(another, clock).seal("{}")), "another database's key");
    }
    assertEquals(Optional.empty(), node.open("99." + clock.millis() + ".x.{}"), "a generation nobody has");
  }

  @Test
  void after_a_rotation_both_the_new_and_the_old_key_open() {
    String beforeRotation = otherNode.seal("{\"n\":1}");
    SigningKeys.existing(db, SignalSeal.PURPOSE, clock).rotate(Duration.ZERO);
    clock.advance(SigningKeys.REFRESH);
    String afterRotation = new SignalSeal(SigningKeys.existing(db, SignalSeal.PURPOSE, clock), clock).seal("{\"n\":2}");
    assertEquals(Optional.of("{\"n\":2}"), node.open(afterRotation), "the node reads the new key when it meets it");
    assertEquals(Optional.of("{\"n\":1}"), node.open(beforeRotation), "what the old key sealed still opens");
  }
}
