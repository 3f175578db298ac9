// Compiles a step's `when` into checks. Each check answers null (passes) or a Miss that says
// which predicate failed, what it expected and what the request had: the raw material of
// near-miss explanations.

import { allToolCalls, latestUserText, messageText, recentToolResults, toolCallsOf } from '../core/conversation.js';
import type { ChatRequest, JsonValue, Message, ToolCallPart, ToolResultPart } from '../core/model.js';
import { jsonEquals } from '../core/schema.js';
import { jsonDifference } from './json-difference.js';
import { parseJsonPath, readJsonPath } from './json-path.js';
import type { MessageSpec, TextMatchSpec, ToolCallSpec, WhenSpec } from './spec.js';

export interface Miss {
  predicate: string;
  expected: string;
  actual: string;
}

export interface Predicate {
  name: string;
  check(request: ChatRequest): Miss | null;
}

const SHORT = 120;
export function preview(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? 'undefined');
  return text.length > SHORT ? `${text.slice(0, SHORT - 1)}…` : text;
}

export function textMatcher(spec: string | TextMatchSpec): { describe: string; test(text: string): boolean } {
  if (typeof spec === 'string') return { describe: `equals ${preview(spec)}`, test: (t) => t === spec };
  if (spec.equals !== undefined) {
    const want = spec.equals;
    return { describe: `equals ${preview(want)}`, test: (t) => t === want };
  }
  if (spec.contains !== undefined) {
    const want = spec.contains;
    return { describe: `contains ${preview(want)}`, test: (t) => t.includes(want) };
  }
  const regex = new RegExp(spec.matches ?? '', spec.flags);
  return { describe: `matches /${regex.source}/${regex.flags}`, test: (t) => regex.test(t) };
}

function parseJsonText(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

// A tool result's content parsed once per request however many steps compare it: the parsed values
// of the latest request's results (recentToolResults gives each request its own list), asked only
// by a step that compares content. Selection and its explanations run synchronously per request.
const NOT_JSON = Symbol('not JSON');
let parsedOf: readonly ToolResultPart[] | undefined;
let parsedValues: (JsonValue | typeof NOT_JSON | undefined)[] = [];

function parsedContent(results: readonly ToolResultPart[], i: number): JsonValue | typeof NOT_JSON {
  if (results !== parsedOf) {
    parsedOf = results;
    parsedValues = new Array<JsonValue | typeof NOT_JSON | undefined>(results.length);
  }
  let parsed = parsedValues[i];
  if (parsed === undefined) {
    const value = parseJsonText(results[i].content);
    parsedValues[i] = parsed = value === undefined ? NOT_JSON : value;
  }
  return parsed;
}

/** The history's latest assistant call with the result's id before the result: the call it answers. */
function callAnswered(request: ChatRequest, result: ToolResultPart): ToolCallPart | undefined {
  let call: ToolCallPart | undefined;
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part === result) return call;
      if (part.type === 'tool_call' && part.id === result.callId) call = part;
    }
  }
  return call;
}

type ToolResultSpec = NonNullable<WhenSpec['toolResult']>;

/** A tool result after the latest user message: by name (or preset) and/or call id, with this
 * content (a preset's result or error envelope, compared structurally), answering a call with
 * these arguments. */
function toolResultPredicate(want: ToolResultSpec): Predicate {
  const name = want.name ?? want.preset;
  const content =
    want.content !== undefined
      ? want.content
      : want.result !== undefined
        ? want.result
        : want.error !== undefined
          ? { error: want.error }
          : undefined;
  // `content` as a string also matches the same text; a preset's result is only ever JSON.
  const sameText = want.content !== undefined && typeof want.content === 'string' ? want.content : undefined;
  const args = want.arguments;
  const contentWord = want.result !== undefined ? 'result' : want.error !== undefined ? 'error envelope' : 'content';
  const expected = [
    want.preset !== undefined ? `preset ${preview(want.preset)}` : name !== undefined ? `name ${preview(name)}` : '',
    want.id !== undefined ? `id ${preview(want.id)}` : '',
    content !== undefined ? `${contentWord} ${preview(content)}` : '',
    args !== undefined ? `call arguments ${preview(args)}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const contentMatches = (results: readonly ToolResultPart[], i: number): boolean =>
    content === undefined || results[i].content === sameText || jsonEquals(parsedContent(results, i), content);
  const argumentsMatch = (request: ChatRequest, result: ToolResultPart): boolean =>
    args === undefined || jsonEquals(callAnswered(request, result)?.arguments, args);
  /** Why a result of the right tool and id is not the one: what differs, first. */
  const whyNot = (request: ChatRequest, results: readonly ToolResultPart[], i: number): string => {
    const result = results[i];
    if (!contentMatches(results, i)) {
      const parsed = parsedContent(results, i);
      return parsed === NOT_JSON
        ? `${contentWord} is not JSON: ${preview(result.content)}`
        : `${contentWord} differs ${jsonDifference(content, parsed, preview)}`;
    }
    const call = callAnswered(request, result);
    if (!call) return `no call with id ${preview(result.callId)} in the history to compare arguments with`;
    if (call.arguments === undefined) return `the call's arguments are not JSON: ${preview(call.argumentsText)}`;
    return `the call's arguments differ ${jsonDifference(args, call.arguments, preview)}`;
  };
  return {
    name: 'toolResult',
    check: (r) => {
      const results = recentToolResults(r);
      for (let i = 0; i < results.length; i++) {
        const result = results[i];
        if (name !== undefined && result.name !== name) continue;
        if (want.id !== undefined && result.callId !== want.id) continue;
        if (!contentMatches(results, i) || !argumentsMatch(r, result)) continue;
        return null;
      }
      return fail(() => ({
        predicate: 'toolResult',
        expected: `a tool result after the latest user message with ${expected}`,
        actual: results.length
          ? results
              .map((x, i) => {
                const same = (name === undefined || x.name === name) && (want.id === undefined || x.callId === want.id);
                return `${x.name ?? '?'}/${x.callId}: ${same ? whyNot(r, results, i) : preview(x.content)}`;
              })
              .join('; ')
          : '(no tool results after the latest user message)',
      }));
    },
  };
}

/** A history message as `historyExact` and `historyContains` compare it (the recorder writes them with it too). */
export function describeMessage(message: Message): MessageSpec {
  const spec: MessageSpec = { role: message.role, content: messageText(message) };
  const calls = toolCallsOf(message);
  if (calls.length > 0) {
    spec.toolCalls = calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments ?? c.argumentsText }));
  }
  const result = message.parts.find((p) => p.type === 'tool_result');
  if (result && result.type === 'tool_result') spec.toolCallId = result.callId;
  return spec;
}

function callMatches(want: ToolCallSpec, have: ToolCallSpec, exact: boolean): boolean {
  if (exact || want.id !== undefined) {
    if (want.id !== have.id) return false;
  }
  if (want.name !== have.name) return false;
  if (exact || want.arguments !== undefined) {
    if (!jsonEquals(want.arguments ?? {}, have.arguments ?? {})) return false;
  }
  return true;
}

/** Exact: every field compared, absent tool calls mean none. Contains: absent fields are wildcards. */
function messageMatches(want: MessageSpec, have: MessageSpec, exact: boolean): boolean {
  if (want.role !== have.role) return false;
  if ((exact || want.content !== undefined) && (want.content ?? '') !== (have.content ?? '')) return false;
  if (exact || want.toolCallId !== undefined) {
    if (want.toolCallId !== have.toolCallId) return false;
  }
  if (exact || want.toolCalls !== undefined) {
    const w = want.toolCalls ?? [];
    const h = have.toolCalls ?? [];
    if (w.length !== h.length) return false;
    for (let i = 0; i < w.length; i++) if (!callMatches(w[i], h[i], exact)) return false;
  }
  return true;
}

// Explanations (expected and actual, previewed) are built only when someone will read them.
let explaining = false;
const UNEXPLAINED: Miss = Object.freeze({ predicate: '', expected: '', actual: '' });
function fail(explain: () => Miss): Miss {
  return explaining ? explain() : UNEXPLAINED;
}

export function compileWhen(when: WhenSpec | undefined): Predicate[] {
  if (!when) return [];
  const predicates: Predicate[] = [];

  if (when.model !== undefined) {
    const m = textMatcher(when.model);
    predicates.push({
      name: 'model',
      check: (r) => (m.test(r.model) ? null : fail(() => ({ predicate: 'model', expected: m.describe, actual: preview(r.model) }))),
    });
  }

  if (when.latestUser !== undefined) {
    const m = textMatcher(when.latestUser);
    predicates.push({
      name: 'latestUser',
      check: (r) => {
        const text = latestUserText(r);
        if (text !== undefined && m.test(text)) return null;
        return fail(() => ({
          predicate: 'latestUser',
          expected: m.describe,
          actual: text === undefined ? '(no user message)' : preview(text),
        }));
      },
    });
  }

  if (when.attempt !== undefined) {
    const want = when.attempt;
    predicates.push({
      name: 'attempt',
      check: (r) =>
        (r.attempt ?? 0) === want
          ? null
          : fail(() => ({
              predicate: 'attempt',
              expected: `retry attempt ${want}`,
              actual: r.attempt === undefined ? 'no retry header (attempt 0)' : `attempt ${r.attempt}`,
            })),
    });
  }

  if (when.hasTool !== undefined) {
    const names = typeof when.hasTool === 'string' ? [when.hasTool] : when.hasTool;
    predicates.push({
      name: 'hasTool',
      check: (r) =>
        names.every((name) => r.tools.some((t) => t.name === name))
          ? null
          : fail(() => ({
              predicate: 'hasTool',
              expected:
                names.length === 1 ? `a declared tool ${preview(names[0])}` : `declared tools ${names.map((n) => preview(n)).join(', ')}`,
              actual: r.tools.length ? `declared: ${r.tools.map((t) => t.name).join(', ')}` : '(no tools declared)',
            })),
    });
  }

  if (when.toolResult !== undefined) predicates.push(toolResultPredicate(when.toolResult));

  if (when.toolArguments !== undefined) {
    const want = when.toolArguments;
    predicates.push({
      name: 'toolArguments',
      check: (r) => {
        const calls = allToolCalls(r).filter(
          (c) => (want.name === undefined || c.name === want.name) && (want.id === undefined || c.id === want.id),
        );
        if (calls.some((c) => jsonEquals(c.arguments, want.equals))) return null;
        return fail(() => ({
          predicate: 'toolArguments',
          expected: `a tool call${want.name ? ` to ${want.name}` : ''}${want.id ? ` (${want.id})` : ''} with arguments ${preview(want.equals)}`,
          actual: calls.length
            ? calls
                .map(
                  (c) =>
                    `${c.name}(${c.argumentsText})${c.arguments === undefined ? ' (not JSON)' : `: arguments differ ${jsonDifference(want.equals, c.arguments, preview)}`}`,
                )
                .join('; ')
            : '(no such tool call)',
        }));
      },
    });
  }

  if (when.jsonPath !== undefined) {
    const want = when.jsonPath;
    const segments = parseJsonPath(want.path);
    const where = want.in ?? 'latest';
    predicates.push({
      name: 'jsonPath',
      check: (r) => {
        let source: string | undefined;
        let parsed: JsonValue | undefined;
        if (where === 'toolResult') {
          const results = recentToolResults(r);
          source = results.length ? results[results.length - 1].content : undefined;
          // Parsed once per request, with the results toolResult steps compare.
          const value = results.length ? parsedContent(results, results.length - 1) : undefined;
          parsed = value === NOT_JSON ? undefined : value;
        } else {
          const last = r.messages[r.messages.length - 1];
          source = last ? messageText(last) : undefined;
          parsed = source === undefined ? undefined : parseJsonText(source);
        }
        const found = readJsonPath(parsed, segments);
        if (found !== undefined && jsonEquals(found, want.equals)) return null;
        return fail(() => ({
          predicate: 'jsonPath',
          expected: `${want.path} in the ${where === 'toolResult' ? 'latest tool result' : 'latest message'} equals ${preview(want.equals)}`,
          actual:
            source === undefined
              ? '(nothing to read)'
              : parsed === undefined
                ? `not JSON: ${preview(source)}`
                : found === undefined
                  ? `${want.path} is absent`
                  : preview(found),
        }));
      },
    });
  }

  if (when.historyExact !== undefined) {
    const want = when.historyExact;
    predicates.push({
      name: 'historyExact',
      check: (r) => {
        const have = r.messages.map(describeMessage);
        if (have.length !== want.length) {
          return fail(() => ({
            predicate: 'historyExact',
            expected: `${want.length} messages`,
            actual: `${have.length} messages (${have.map((m) => m.role).join(', ')})`,
          }));
        }
        for (let i = 0; i < want.length; i++) {
          if (!messageMatches(want[i], have[i], true)) {
            return fail(() => ({ predicate: 'historyExact', expected: `message ${i}: ${preview(want[i])}`, actual: preview(have[i]) }));
          }
        }
        return null;
      },
    });
  }

  if (when.historyContains !== undefined) {
    const want = when.historyContains;
    predicates.push({
      name: 'historyContains',
      check: (r) => {
        const have = r.messages.map(describeMessage);
        let at = 0;
        for (let i = 0; i < want.length; i++) {
          while (at < have.length && !messageMatches(want[i], have[at], false)) at++;
          if (at >= have.length) {
            return fail(() => ({
              predicate: 'historyContains',
              expected: `message ${preview(want[i])}${i > 0 ? ` after message ${i - 1} of the list` : ''}`,
              actual: `not found among ${have.length} messages`,
            }));
          }
          at++;
        }
        return null;
      },
    });
  }

  return predicates;
}

/** Every predicate that fails, each explained (for near-miss reports; not the hot path). */
export function checkAll(predicates: Predicate[], request: ChatRequest): Miss[] {
  const misses: Miss[] = [];
  explaining = true;
  try {
    for (const p of predicates) {
      const miss = p.check(request);
      if (miss) misses.push(miss);
    }
  } finally {
    explaining = false;
  }
  return misses;
}

/** Whether every predicate passes. Selection runs this for many scripts per request, so a
 * failing predicate does not build its explanation here. */
export function allPass(predicates: Predicate[], request: ChatRequest): boolean {
  for (const p of predicates) if (p.check(request) !== null) return false;
  return true;
}
