// A session's scripts drawn as graphs: each step a node, each `next` an arrow, steps that complete
// the scenario pointing at an end node. Steps already used are filled, the steps the cursor stands
// on (the candidates that may answer next) are outlined and marked. Beside the drawing, the same
// facts as a list of steps, which is what a screen reader reads.

import { compactJson, h, s } from './dom.js';
import type { ScriptGraph, StepNode } from './types.js';

const NODE_W = 176;
const NODE_H = 62;
const H_GAP = 28;
const V_GAP = 40;
const MARGIN = 16;
const LOOP_ROOM = 44;
const END_R = 16;

let graphCount = 0;

/** A one-line account of what a step answers with. */
export function replySummary(step: StepNode): string {
  const { reply } = step;
  if (reply.error) return ['error', reply.error.status, reply.error.code].filter((part) => part !== undefined && part !== null).join(' ');
  const parts: string[] = [];
  if (reply.toolCalls?.length) parts.push(`calls ${reply.toolCalls.join(', ')}`);
  if (reply.text !== undefined) parts.push(`"${reply.text}"`);
  if (reply.chunks !== undefined) parts.push(`${reply.chunks} chunks`);
  return parts.join(', ') || 'a reply';
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

interface Placed {
  step: StepNode;
  x: number;
  y: number;
  depth: number;
}

/** Layers by breadth-first distance from the first step; steps it never reaches start layers of their own. */
function layout(steps: StepNode[]): { placed: Map<string, Placed>; width: number; height: number; endY: number } {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const depth = new Map<string, number>();
  const ordered = [...steps].sort((a, b) => a.index - b.index);
  for (const root of ordered) {
    if (depth.has(root.id)) continue;
    depth.set(root.id, 0);
    const queue = [root];
    while (queue.length > 0) {
      const step = queue.shift()!;
      for (const next of step.next) {
        const target = byId.get(next);
        if (!target || depth.has(next)) continue;
        depth.set(next, depth.get(step.id)! + 1);
        queue.push(target);
      }
    }
  }
  const layers: StepNode[][] = [];
  for (const step of ordered) (layers[depth.get(step.id)!] ??= []).push(step);
  const widest = Math.max(1, ...layers.map((layer) => layer.length));
  const inner = widest * NODE_W + (widest - 1) * H_GAP;
  const placed = new Map<string, Placed>();
  layers.forEach((layer, row) => {
    const span = layer.length * NODE_W + (layer.length - 1) * H_GAP;
    const left = MARGIN + (inner - span) / 2;
    layer.forEach((step, i) =>
      placed.set(step.id, { step, x: left + i * (NODE_W + H_GAP), y: MARGIN + row * (NODE_H + V_GAP), depth: row }),
    );
  });
  const endY = MARGIN + layers.length * (NODE_H + V_GAP) + END_R;
  return { placed, width: MARGIN * 2 + inner + LOOP_ROOM, height: endY + END_R + MARGIN, endY };
}

function stepTitle(step: StepNode, graph: ScriptGraph): string {
  const facts = [
    `step ${step.id}`,
    step.when === null ? 'when: any request' : `when: ${compactJson(step.when, 300)}`,
    `reply: ${replySummary(step)}`,
    step.used === 0 ? 'not used' : `used ${step.used} ${step.used === 1 ? 'time' : 'times'}`,
  ];
  if (graph.candidates.includes(step.id)) facts.push('the cursor stands here: it may answer next');
  if (graph.released.includes(step.id)) facts.push('released: it may answer again');
  return facts.join('\n');
}

function drawGraph(graph: ScriptGraph): SVGSVGElement {
  const id = ++graphCount;
  const { placed, width, height, endY } = layout(graph.steps);
  const svg = s('svg', {
    className: 'graph-svg',
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
    'aria-label': `Graph of scenario ${graph.name}: ${graph.steps.length} steps, ${graph.steps.filter((st) => st.used > 0).length} used`,
  });
  const arrow = `arrow-${id}`;
  svg.append(
    s(
      'defs',
      {},
      s(
        'marker',
        { id: arrow, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
        s('path', { d: 'M0,0 L10,5 L0,10 z', className: 'arrow-head' }),
      ),
    ),
  );
  const endX = MARGIN + (width - MARGIN * 2 - LOOP_ROOM) / 2;
  const edges = s('g', { className: 'edges' });
  const nodes = s('g', { className: 'nodes' });
  let endUsed = false;
  for (const { step, x, y, depth } of placed.values()) {
    const from = { x: x + NODE_W / 2, y: y + NODE_H };
    if (step.next.length === 0) {
      endUsed = true;
      edges.append(
        s('path', {
          className: 'edge edge-end',
          d: `M${from.x},${from.y} C${from.x},${from.y + V_GAP / 2} ${endX},${endY - END_R - V_GAP / 2} ${endX},${endY - END_R}`,
          'marker-end': `url(#${arrow})`,
        }),
      );
    }
    for (const nextId of step.next) {
      const target = placed.get(nextId);
      if (!target) continue;
      if (target.depth > depth) {
        const to = { x: target.x + NODE_W / 2, y: target.y };
        const bend = (to.y - from.y) / 2;
        edges.append(
          s('path', {
            className: 'edge',
            d: `M${from.x},${from.y} C${from.x},${from.y + bend} ${to.x},${to.y - bend} ${to.x},${to.y}`,
            'marker-end': `url(#${arrow})`,
          }),
        );
      } else {
        // Back to an earlier step (or itself): a loop around the right-hand side.
        const fx = x + NODE_W;
        const fy = y + NODE_H / 2;
        const tx = target.x + NODE_W;
        const ty = target.y + NODE_H / 2 - (target.step === step ? 12 : 0);
        const out = Math.max(fx, tx) + LOOP_ROOM - 8;
        edges.append(
          s('path', {
            className: 'edge edge-back',
            d: `M${fx},${fy + (target.step === step ? 12 : 0)} C${out},${fy} ${out},${ty} ${tx},${ty}`,
            'marker-end': `url(#${arrow})`,
          }),
        );
      }
    }
    const candidate = graph.candidates.includes(step.id) || graph.released.includes(step.id);
    const classes = [
      'node',
      step.used > 0 ? 'node-used' : 'node-unused',
      candidate ? 'node-candidate' : '',
      graph.lastStep === step.id ? 'node-last' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const group = s(
      'g',
      { className: classes, 'data-step': step.id },
      s('title', {}, stepTitle(step, graph)),
      s('rect', { x, y, width: NODE_W, height: NODE_H, rx: 8 }),
      s('text', { x: x + 10, y: y + 20, className: 'node-id' }, clip(step.id, 20)),
      s('text', { x: x + 10, y: y + 37, className: 'node-reply' }, clip(replySummary(step), 24)),
      s('text', { x: x + 10, y: y + 53, className: 'node-used-count' }, step.used === 0 ? 'not used' : `used ×${step.used}`),
    );
    if (candidate) {
      group.append(
        s('rect', { x: x + NODE_W - 58, y: y - 9, width: 52, height: 18, rx: 9, className: 'cursor-badge' }),
        s('text', { x: x + NODE_W - 32, y: y + 4, className: 'cursor-text', 'text-anchor': 'middle' }, 'cursor'),
      );
    }
    nodes.append(group);
  }
  svg.append(edges, nodes);
  if (endUsed) {
    svg.append(
      s(
        'g',
        { className: graph.complete ? 'end end-reached' : 'end' },
        s('title', {}, graph.complete ? 'the scenario is complete' : 'the scenario completes here'),
        s('circle', { cx: endX, cy: endY, r: END_R }),
        s('text', { x: endX, y: endY + 4, 'text-anchor': 'middle' }, 'end'),
      ),
    );
  }
  return svg;
}

function stepItem(step: StepNode, graph: ScriptGraph): HTMLLIElement {
  const badges: HTMLElement[] = [];
  if (graph.candidates.includes(step.id)) badges.push(h('span', { className: 'badge badge-cursor' }, 'cursor'));
  if (graph.released.includes(step.id)) badges.push(h('span', { className: 'badge badge-cursor' }, 'released'));
  if (graph.lastStep === step.id) badges.push(h('span', { className: 'badge' }, 'last answered'));
  return h(
    'li',
    { className: step.used > 0 ? 'step step-used' : 'step step-unused', 'data-step': step.id },
    h('span', { className: 'step-id' }, step.id),
    ' ',
    h('span', { className: 'step-used-count' }, step.used === 0 ? 'not used' : `used ×${step.used}`),
    ' ',
    ...badges,
    h(
      'dl',
      { className: 'step-facts' },
      h('dt', {}, 'when'),
      h('dd', {}, h('code', {}, step.when === null ? 'any request' : compactJson(step.when, 400))),
      h('dt', {}, 'reply'),
      h('dd', {}, replySummary(step)),
      h('dt', {}, 'next'),
      h('dd', {}, step.next.length === 0 ? 'the scenario completes' : step.next.join(', ')),
    ),
  );
}

/** One scenario: its heading, state, drawing and step list. */
export function renderScript(graph: ScriptGraph): HTMLElement {
  const state = graph.complete ? 'complete' : graph.replies === 0 ? 'not started' : 'in progress';
  const limits = [
    `exhausted: ${graph.exhausted}`,
    `replies ${graph.replies}${graph.maxReplies === null ? '' : ` of at most ${graph.maxReplies}`}`,
  ];
  const cursor = graph.candidates.length === 0 ? 'the cursor stands on no step' : `the cursor stands on ${graph.candidates.join(', ')}`;
  return h(
    'article',
    { className: `script script-${graph.complete ? 'complete' : 'open'}`, 'data-script': graph.name },
    h('h3', {}, graph.name, ' ', h('span', { className: `badge badge-${graph.complete ? 'ok' : 'state'}` }, state)),
    h('p', { className: 'script-facts' }, `${limits.join(' · ')} · ${cursor}`),
    h('div', { className: 'graph-scroll' }, drawGraph(graph)),
    h(
      'details',
      { className: 'step-list' },
      h('summary', {}, `Steps of ${graph.name} as a list`),
      h('ol', {}, ...graph.steps.map((step) => stepItem(step, graph))),
    ),
  );
}
