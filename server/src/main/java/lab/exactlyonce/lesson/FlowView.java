package lab.exactlyonce.lesson;

import j2html.tags.DomContent;
import lab.exactlyonce.web.Markdown;

import static j2html.TagCreator.*;

/**
 * A decision flow as an ordered list of its steps, each saying where it leads; readable as is, and the data
 * flow.js reads to build the stepper in the empty {@code .flow-stepper} box.
 */
final class FlowView {
  private FlowView() {}

  static String stepId(DecisionFlow flow, String stepId) {
    return "maps/flow/" + flow.id() + "/" + stepId;
  }

  static DomContent render(DecisionFlow flow) {
    String headingId = "maps/flow/" + flow.id() + "/title";
    return section(
        h3(flow.title()).withId(headingId),
        iff(flow.description() != null, div(Markdown.block(flow.description()))
            .withClass("flow-description")),
        div().withClass("flow-stepper").attr("hidden"),
        details(
            summary("All steps as a list"),
            ol(each(flow.steps(), step -> step(flow, step))).withClass("flow-steps")
        ).withClass("flow-text").attr("open")
    ).withId("maps/flow/" + flow.id()).withClass("flow").attr("data-flow", flow.id()).attr("data-start", flow.start())
        .attr("aria-labelledby", headingId);
  }

  private static DomContent step(DecisionFlow flow, DecisionFlow.Step step) {
    return li(
        p(span(step.number()).withClass("flow-step-number"), text(" "),
            span(step.label()).withClass("flow-step-label")).withClass("flow-step-title"),
        div(Markdown.block(step.detail())).withClass("flow-step-detail"),
        step.next().isEmpty()
            ? p("End of this path.").withClass("flow-end")
            : div(
                iff(step.isDecision(), p("Decision:").withClass("flow-decision")),
                ul(each(step.next(), next -> li(
                    a(span(next.label()).withClass("flow-next-label"), text(" → " + describe(flow, next.to())))
                        .withHref("#" + stepId(flow, next.to()))
                        .attr("data-to", next.to())))).withClass("flow-next"))
    ).withId(stepId(flow, step.id())).withClass("flow-step").attr("data-step", step.id())
        .attr("data-number", step.number()).condAttr(step.isDecision(), "data-decision", "true");
  }

  private static String describe(DecisionFlow flow, String stepId) {
    return flow.steps().stream().filter(s -> s.id().equals(stepId)).findFirst()
        .map(s -> s.number() + ". " + s.label()).orElse(stepId);
  }
}
