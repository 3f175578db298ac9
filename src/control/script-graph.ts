// GET /_understudy/sessions/ID/scripts: a session's scripts as graphs — each step with its
// condition as written, a short account of its reply, the steps that may follow it and how often
// it answered — and where each cursor stands, for the dashboard.

import type { Reply } from '../core/model.js';
import type { Script } from '../engine/script.js';

const TEXT_CHARS = 200;

export interface StepView {
  id: string;
  index: number;
  when: unknown;
  reply: {
    text?: string;
    json?: boolean;
    toolCalls?: string[];
    error?: { status: number; code?: string };
    chunks?: number;
    fault?: string;
  };
  next: string[];
  used: number;
}

export interface ScriptView {
  name: string;
  exhausted: string;
  maxReplies: number | null;
  replies: number;
  complete: boolean;
  candidates: string[];
  released: string[];
  lastStep: string | null;
  steps: StepView[];
}

export function scriptGraph(scripts: readonly Script[]): { scripts: ScriptView[] } {
  return { scripts: scripts.map(scriptView) };
}

function scriptView(script: Script): ScriptView {
  const idOf = (i: number) => script.steps[i].id;
  const specs = script.spec.steps;
  return {
    name: script.name,
    exhausted: script.exhausted,
    maxReplies: Number.isFinite(script.maxReplies) ? script.maxReplies : null,
    replies: script.replies,
    complete: script.complete,
    candidates: script.candidates.map(idOf),
    released: script.released.map(idOf),
    lastStep: script.lastStep >= 0 ? idOf(script.lastStep) : null,
    steps: script.steps.map((step) => ({
      id: step.id,
      index: step.index,
      when: structuredClone(specs?.[step.index]?.when ?? null),
      reply: replyView(step.reply),
      next: step.next.map(idOf),
      used: script.used[step.index],
    })),
  };
}

function replyView(reply: Reply): StepView['reply'] {
  const view: StepView['reply'] = {};
  if (reply.text !== undefined) view.text = reply.text.length > TEXT_CHARS ? `${reply.text.slice(0, TEXT_CHARS - 1)}…` : reply.text;
  if (reply.json !== undefined) view.json = true;
  if (reply.toolCalls?.length) view.toolCalls = reply.toolCalls.map((call) => call.name);
  if (reply.error) view.error = { status: reply.error.status, ...(reply.error.code !== undefined && { code: reply.error.code }) };
  if (reply.chunks) view.chunks = reply.chunks.length;
  if (reply.fault) view.fault = reply.fault.kind;
  return view;
}
