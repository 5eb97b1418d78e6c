package lab.exactlyonce.lesson;

import java.util.List;

/**
 * A stepper through a protocol: steps link to their successors; a step with two or more {@code next} choices is a
 * decision the learner makes; a step with none ends the flow. {@code topic} is the id of its lesson topic.
 */
public record DecisionFlow(String id, String title, String topic, String description, String start, List<Step> steps) {
  public DecisionFlow {
    id = Checks.id(id, "id");
    title = Checks.text(title, "title");
    topic = Checks.optional(topic);
    description = Checks.optional(description);
    start = Checks.id(start, "start");
    steps = Checks.nonEmpty(steps, "steps");
  }

  /** {@code number} is the label shown (for example "6" or "7b"); {@code detail} is Markdown. */
  public record Step(String id, String number, String label, String detail, List<Next> next) {
    public Step {
      id = Checks.id(id, "id");
      number = Checks.text(number, "number");
      label = Checks.text(label, "label");
      detail = Checks.text(detail, "detail");
      next = Checks.list(next);
    }

    public boolean isDecision() { return next.size() > 1; }
  }

  /** A way out of a step: the step it leads to and the choice's label (for example "yes" or "crash"). */
  public record Next(String to, String label) {
    public Next {
      to = Checks.id(to, "to");
      label = Checks.text(label, "label");
    }
  }
}
