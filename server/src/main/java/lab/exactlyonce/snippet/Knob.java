package lab.exactlyonce.snippet;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A parameter of a snippet the replay lab lets a learner turn: declared by a header line
 * {@code // Knob: NAME int|long|boolean MIN..MAX Label text} and bound to the declaration
 * {@code static final <type> NAME = <default>;} in the source. Serialized for the page as
 * {@code {name, type, min, max, default, label}}.
 */
public sealed interface Knob permits NumberKnob, BooleanKnob {
  String name();

  /** {@code int}, {@code long} or {@code boolean}: the Java type of the declaration it sets. */
  String type();

  String label();

  /** "a whole number from 1 to 5" or "true or false". */
  String range();

  /**
   * The value a learner sent for this knob, as {@link SnippetParameters#rewrite} takes it.
   *
   * @param culprit names the knob in the message, such as {@code knob 'TTL' of snippet 'txn-dedupe-demo'}
   * @throws KnobSettings.Refused naming the knob, what it takes and what it got
   */
  Object accept(String culprit, JsonNode value);
}
