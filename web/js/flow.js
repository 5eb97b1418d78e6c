// Decision-flow stepper. Reads the server-rendered list of steps (.flow-steps) and builds a stepper in the
// flow's .flow-stepper box: the current step (number, label, detail), Back / Next, one button per choice at a
// decision, the path taken so far, Restart. The current step is announced through aria-live.

import { el } from './dom.js';

function readSteps(root) {
  const steps = new Map();
  for (const li of root.querySelectorAll('.flow-step[data-step]')) {
    steps.set(li.dataset.step, {
      id: li.dataset.step,
      number: li.dataset.number,
      label: li.querySelector('.flow-step-label').textContent,
      detail: li.querySelector('.flow-step-detail'),
      next: [...li.querySelectorAll('.flow-next a[data-to]')].map((a) => ({
        to: a.dataset.to,
        label: a.querySelector('.flow-next-label').textContent,
      })),
    });
  }
  return steps;
}

function initFlow(root) {
  const steps = readSteps(root);
  const start = root.dataset.start;
  const box = root.querySelector('.flow-stepper');
  const list = root.querySelector('.flow-text');
  const title = (step) => `${step.number}. ${step.label}`;

  const current = el('div', { class: 'flow-current' });
  current.setAttribute('aria-live', 'polite');
  current.setAttribute('aria-atomic', 'true');
  const back = el('button', { type: 'button', class: 'flow-back' }, 'Back');
  const next = el('button', { type: 'button', class: 'flow-next-button' }, 'Next');
  const restart = el('button', { type: 'button', class: 'flow-restart' }, 'Restart');
  const choices = el('div', { class: 'flow-choices' });
  choices.setAttribute('role', 'group');
  const pathList = el('ol', { class: 'flow-path' });
  pathList.setAttribute('aria-label', 'Path so far');
  box.replaceChildren(
    current,
    choices,
    el('div', { class: 'flow-controls' }, back, next, restart),
    el('div', { class: 'flow-trail' }, el('p', { class: 'flow-path-heading' }, 'Path so far'), pathList),
  );
  box.hidden = false;
  if (list) list.open = false;

  let path = [start];

  function render() {
    const step = steps.get(path[path.length - 1]);
    const detail = step.detail.cloneNode(true);
    const outcome = step.next.length === 0 ? el('p', { class: 'flow-end' }, 'End of this path. Restart to try the other branch.') : '';
    current.replaceChildren(
      el('p', { class: 'flow-current-number' }, `Step ${step.number}`),
      el('p', { class: 'flow-current-label' }, step.label),
      detail,
      outcome,
    );
    root.dataset.step = step.id;
    root.dataset.state = step.next.length === 0 ? 'end' : step.next.length > 1 ? 'decision' : 'step';

    back.disabled = path.length === 1;
    next.hidden = step.next.length !== 1;
    if (step.next.length === 1) {
      next.textContent = '';
      next.append('Next', el('span', { class: 'flow-next-target' }, `: ${title(steps.get(step.next[0].to))}`));
    }

    if (step.next.length > 1) {
      choices.setAttribute('aria-label', `Choose: ${step.label}`);
      choices.replaceChildren(
        el('p', { class: 'flow-choose' }, 'What happens next?'),
        ...step.next.map((choice) =>
          el(
            'button',
            { type: 'button', class: 'flow-choice', onclick: () => go(choice.to) },
            el('span', { class: 'flow-choice-label' }, choice.label),
            el('span', { class: 'flow-choice-target' }, ` → ${title(steps.get(choice.to))}`),
          ),
        ),
      );
    } else {
      choices.replaceChildren();
    }
    choices.hidden = step.next.length <= 1;

    pathList.replaceChildren(
      ...path.map((id, i) => {
        const item = el('li', {}, title(steps.get(id)));
        if (i === path.length - 1) item.setAttribute('aria-current', 'step');
        return item;
      }),
    );
  }

  // Keep keyboard focus on a control that still exists after the step changes.
  function keepFocus() {
    const active = document.activeElement;
    if (active && box.contains(active) && !active.hidden && !active.disabled && active.isConnected) return;
    const target = [...choices.querySelectorAll('button')][0] ?? (next.hidden ? restart : next);
    target.focus();
  }

  function go(id) {
    path.push(id);
    render();
    keepFocus();
  }

  next.addEventListener('click', () => {
    const step = steps.get(path[path.length - 1]);
    if (step.next.length === 1) go(step.next[0].to);
  });
  back.addEventListener('click', () => {
    if (path.length > 1) path.pop();
    render();
    keepFocus();
  });
  restart.addEventListener('click', () => {
    path = [start];
    render();
    keepFocus();
  });

  render();

  return {
    // Shows a step reached by the shortest path from the start (for deep links to a step).
    show(flowId, stepId) {
      if (flowId !== root.dataset.flow || !steps.has(stepId)) return false;
      const previous = new Map([[start, null]]);
      const queue = [start];
      while (queue.length > 0) {
        const id = queue.shift();
        for (const n of steps.get(id).next) {
          if (!previous.has(n.to)) {
            previous.set(n.to, id);
            queue.push(n.to);
          }
        }
      }
      if (!previous.has(stepId)) return false;
      const found = [];
      for (let id = stepId; id !== null; id = previous.get(id)) found.unshift(id);
      path = found;
      render();
      return true;
    },
  };
}

const flows = [...document.querySelectorAll('.flow[data-flow]')].map(initFlow);

function route(path) {
  const [kind, flowId, stepId] = path;
  if (kind === 'flow' && flowId && stepId) flows.some((flow) => flow.show(flowId, stepId));
}

document.addEventListener('lesson:route', (event) => {
  if (event.detail?.tab === 'maps') route(event.detail.path ?? []);
});
function routeFromHash() {
  const [tab, ...path] = decodeURIComponent(location.hash.slice(1)).split('/');
  if (tab === 'maps') route(path);
}
window.addEventListener('hashchange', routeFromHash);
routeFromHash();
