// The fixture format's rules across fields (fixture-schema.ts attaches each to the schema it
// constrains, beside its JSON Schema counterpart): unique names and ids, `next` resolving,
// "steps or replies", what a reply may hold together, the reply limits, text matches and JSON paths.

import { found, has, isObj, nearest, pointer, quoteList, type Obj, type Path, type Rule, type RuleContext } from './fixture-words.js';
import { isPresetName, presetValueProblems, type PresetValuePart } from '../core/preset-copy.js';
import { JSON_PATH_SEGMENT } from './json-path.js';
import { sizeText } from './reply-limits.js';
import { replyImageRule, scriptedImageRule } from './fixture-rules-images.js';
import { AUDIO_LISTS, AUDIO_RULES } from './fixture-rules-audio.js';
import { scriptedVideoRule } from './fixture-rules-videos.js';
import { RECORDING_RULES } from './fixture-rules-recording.js';

export const TEXT_MODES = ['equals', 'contains', 'matches'] as const;
export const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
export const TOOL_CALL_ID_MAX = 128;
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Any JSON value: no NaN or Infinity, only plain objects and lists, none inside itself (a value
 * built in code can be; JSON text cannot). */
export function jsonRule(value: unknown, path: Path, ctx: RuleContext): boolean {
  return jsonValue(value, path, ctx, new Set());
}

function jsonValue(value: unknown, path: Path, ctx: RuleContext, inside: Set<object>): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return true;
    ctx.report(path, `expected a JSON value; found ${String(value)} (not representable in JSON)`);
    return false;
  }
  if (Array.isArray(value) || isObj(value)) {
    if (inside.has(value)) {
      ctx.report(path, 'expected a JSON value; found a value that contains itself');
      return false;
    }
    inside.add(value);
    const ok = Array.isArray(value)
      ? value.every((v, i) => jsonValue(v, [...path, i], ctx, inside))
      : Object.entries(value).every(([k, v]) => jsonValue(v, [...path, k], ctx, inside));
    inside.delete(value);
    return ok;
  }
  ctx.report(path, `expected a JSON value; found ${typeof value}`);
  return false;
}

/** Whether a value is JSON as the format means it (the json rule, silently). */
export function isJsonValue(value: unknown): boolean {
  let ok = true;
  jsonRule(value, [], { limits: undefined as never, report: () => void (ok = false) });
  return ok;
}

export function stepIdRule(id: unknown, path: Path, ctx: RuleContext): void {
  if (id === 'complete')
    ctx.report(path, 'expected a step id other than "complete" (it is reserved for `next: complete`); found "complete"');
}

export function faultRule(fault: Obj, path: Path, ctx: RuleContext): void {
  if (has(fault, 'afterChunks') && has(fault, 'afterBytes'))
    ctx.report([...path, 'afterBytes'], 'expected either "afterChunks" or "afterBytes", not both; found both');
}

export function headerNamesRule(headers: Obj, path: Path, ctx: RuleContext): void {
  for (const key of Object.keys(headers)) {
    if (!HEADER_NAME.test(key))
      ctx.report([...path, key], `expected an HTTP header name (letters, digits and !#$%&'*+.^_\`|~-); found "${key}"`, true);
  }
}

export function messageRule(message: Obj, path: Path, ctx: RuleContext): void {
  const role = typeof message.role === 'string' && (ROLES as readonly string[]).includes(message.role) ? message.role : undefined;
  if (role === undefined) return;
  if (has(message, 'toolCallId') && role !== 'tool')
    ctx.report([...path, 'toolCallId'], `expected "toolCallId" only on a message with role tool; found role ${role}`);
  if (has(message, 'toolCalls') && role !== 'assistant')
    ctx.report([...path, 'toolCalls'], `expected "toolCalls" only on a message with role assistant; found role ${role}`);
}

export function toolResultRule(condition: Obj, path: Path, ctx: RuleContext): void {
  if (has(condition, 'name') || has(condition, 'id') || has(condition, 'preset')) return;
  const keys = Object.keys(condition);
  ctx.report(
    path,
    `expected at least one of "name", "id", "preset" in toolResult; found ${keys.length ? `only ${quoteList(keys)}` : 'none of them'}`,
  );
}

/** A preset value the catalogue's schema refuses, reported where it is written. */
function presetValue(preset: string, part: PresetValuePart, value: unknown, at: Path, ctx: RuleContext): void {
  if (!isPresetName(preset) || !isJsonValue(value)) return;
  const problems = presetValueProblems(preset, part, value);
  const what = part === 'arguments' ? 'arguments' : part === 'error' ? 'an error' : 'a result';
  const schema = part === 'arguments' ? 'parameters' : part;
  if (problems.length > 0) ctx.report(at, `expected ${what} the "${preset}" preset's ${schema} schema accepts; ${problems.join('; ')}`);
}

/** A reply's tool call names a tool or a preset, not both; a preset call's arguments fit the preset. */
export function presetCallRule(call: Obj, path: Path, ctx: RuleContext): void {
  const hasName = has(call, 'name');
  const hasPreset = has(call, 'preset');
  if (hasName && hasPreset) {
    ctx.report([...path, 'preset'], 'expected either "name" or "preset" in a tool call, not both; found both');
    return;
  }
  if (!hasName && !hasPreset) {
    ctx.report(path, 'missing required key "name" in a tool call (or "preset", to call a preset)');
    return;
  }
  if (!hasPreset || typeof call.preset !== 'string') return;
  if (!has(call, 'arguments')) ctx.report(path, `missing required key "arguments" in a tool call to the preset "${call.preset}"`);
  else presetValue(call.preset, 'arguments', call.arguments, [...path, 'arguments'], ctx);
}

/** What a toolResult condition may hold with `preset` (and only with it), each value fitting the preset. */
export function presetResultRule(condition: Obj, path: Path, ctx: RuleContext): void {
  if (has(condition, 'name') && has(condition, 'preset'))
    ctx.report([...path, 'preset'], 'expected either "name" or "preset" in toolResult, not both; found both');
  for (const key of ['result', 'error'] as const) {
    if (!has(condition, key)) continue;
    if (!has(condition, 'preset'))
      ctx.report([...path, key], `expected "${key}" only together with "preset" (use "content" for any tool); found no "preset"`);
    if (has(condition, 'content')) ctx.report([...path, key], `expected either "content" or "${key}" in toolResult, not both; found both`);
  }
  if (has(condition, 'result') && has(condition, 'error'))
    ctx.report([...path, 'error'], 'expected either "result" or "error" in toolResult, not both; found both');
  if (typeof condition.preset !== 'string') return;
  for (const part of ['arguments', 'result', 'error'] as const) {
    if (has(condition, part)) presetValue(condition.preset, part, condition[part], [...path, part], ctx);
  }
}

export function jsonPathRule(path: unknown, at: Path, ctx: RuleContext): void {
  const problem = typeof path === 'string' ? jsonPathProblem(path) : undefined;
  if (problem) ctx.report(at, problem);
}

/** A scripted vector entry answers a vector or an error: exactly one. */
export function scriptedVectorRule(entry: Obj, path: Path, ctx: RuleContext): void {
  const hasVector = has(entry, 'vector');
  const hasError = has(entry, 'error');
  if (hasVector && hasError)
    ctx.report([...path, 'error'], 'expected either "vector" or "error" in a scripted vector, not both; found both');
  else if (!hasVector && !hasError)
    ctx.report(path, 'expected "vector" (a list of numbers) or "error" in a scripted vector; found neither');
  const fault = entry.fault;
  if (isObj(fault) && fault.kind === 'error')
    ctx.report(
      [...path, 'fault', 'kind'],
      'expected a fault of kind truncate, malformed, stall, reset or close: an embeddings answer is not a stream, so it has no in-stream error event (script a provider error with "error"); found error',
    );
}

/** A file with no scenarios is only a file of scripted vectors, images, audio or videos. */
export function scenariosOrEmbeddings(root: Obj, _path: Path, ctx: RuleContext): void {
  const scripted =
    Array.isArray(root.embeddings) ||
    Array.isArray(root.images) ||
    Array.isArray(root.videos) ||
    AUDIO_LISTS.some((list) => Array.isArray(root[list]));
  if (Array.isArray(root.scenarios) && root.scenarios.length === 0 && !scripted) {
    ctx.report(['scenarios'], 'expected a list of scenarios with at least one entry; found an empty list');
  }
}

export function uniqueScenarioNames(root: Obj, _path: Path, ctx: RuleContext): void {
  if (!Array.isArray(root.scenarios)) return;
  const names = new Map<string, number>();
  root.scenarios.forEach((scenario: unknown, i) => {
    if (!isObj(scenario) || typeof scenario.name !== 'string' || scenario.name.trim() === '') return;
    const first = names.get(scenario.name);
    if (first === undefined) names.set(scenario.name, i);
    else
      ctx.report(
        ['scenarios', i, 'name'],
        `expected a scenario name unique in the file; found "${scenario.name}" again (first at /scenarios/${first}/name)`,
      );
  });
}

export function scenarioRule(scenario: Obj, path: Path, ctx: RuleContext): void {
  const hasSteps = has(scenario, 'steps');
  const hasReplies = has(scenario, 'replies');
  if (hasSteps && hasReplies) ctx.report([...path, 'replies'], 'expected either "steps" or "replies" in a scenario, not both; found both');
  else if (!hasSteps && !hasReplies)
    ctx.report(path, 'expected "steps" (a list of steps) or "replies" (a queue of replies) in the scenario; found neither');
  if (Array.isArray(scenario.steps) && scenario.steps.length > 0) stepIds(scenario.steps, [...path, 'steps'], ctx);
}

/** Step ids unique (explicit, or "step-N" as the engine assigns them) and every `next` resolving. */
function stepIds(steps: unknown[], path: Path, ctx: RuleContext): void {
  const ids: (string | undefined)[] = steps.map((step, i) => {
    if (!isObj(step) || !has(step, 'id')) return `step-${i + 1}`;
    return typeof step.id === 'string' && step.id.trim() !== '' ? step.id : undefined;
  });
  const known = [...new Set(ids.filter((id): id is string => id !== undefined))];
  const seen = new Map<string, number>();
  steps.forEach((step, i) => {
    if (!isObj(step)) return;
    const stepPath = [...path, i];
    const id = ids[i];
    if (id !== undefined) {
      const first = seen.get(id);
      if (first === undefined) seen.set(id, i);
      else {
        const explicit = has(step, 'id');
        const firstExplicit = isObj(steps[first]) && has(steps[first] as Obj, 'id');
        ctx.report(
          explicit ? [...stepPath, 'id'] : stepPath,
          `expected step ids unique in the scenario; found "${id}" again${explicit ? '' : ' (the default id of this step)'} (first ${firstExplicit ? 'at' : 'the default id of'} ${pointer([...path, first])})`,
        );
      }
    }
    const refs: [unknown, Path][] = [];
    // By index: a list built in code may have holes (zod reports those).
    if (Array.isArray(step.next)) for (let k = 0; k < step.next.length; k++) refs.push([step.next[k], [...stepPath, 'next', k]]);
    else refs.push([step.next, [...stepPath, 'next']]);
    for (const [ref, at] of refs) {
      if (typeof ref !== 'string' || ref === 'complete' || known.includes(ref)) continue;
      const guess = nearest(ref, [...known, 'complete']);
      ctx.report(
        at,
        `expected the id of a step in this scenario (${quoteList(known)}) or "complete"; found "${ref}"${guess ? ` (did you mean "${guess}"?)` : ''}`,
      );
    }
  });
}

const REPLY_CONTENT = ['text', 'json', 'toolCalls', 'images', 'error'];
const REPLY_KEYS = [
  'text',
  'json',
  'toolCalls',
  'reasoning',
  'chunks',
  'delayMs',
  'error',
  'finishReason',
  'reasoningTokens',
  'citations',
  'pacing',
  'fault',
  'hostFields',
  'images',
  'usage',
];

export function replyRule(reply: Obj, path: Path, ctx: RuleContext): void {
  const hasText = has(reply, 'text');
  const hasJson = has(reply, 'json');
  const hasError = has(reply, 'error');
  if (!hasText && !hasJson && !hasError && !has(reply, 'toolCalls') && !has(reply, 'images')) {
    const keys = Object.keys(reply);
    ctx.report(
      path,
      `expected a reply with at least one of ${quoteList(REPLY_CONTENT)}; found ${keys.length ? `only ${quoteList(keys)}` : 'an empty object'}`,
    );
  }
  if (hasError) {
    for (const key of Object.keys(reply)) {
      if (key !== 'error' && key !== 'delayMs' && REPLY_KEYS.includes(key) && has(reply, key))
        ctx.report([...path, key], `expected nothing but "delayMs" beside "error" (an error reply has no content); found "${key}"`);
    }
  }
  if (hasText && hasJson) ctx.report([...path, 'json'], 'expected either "text" or "json" in a reply, not both; found both');
  const jsonOk = hasJson && isJsonValue(reply.json);
  if (Array.isArray(reply.chunks)) {
    if (!hasText && !hasJson) {
      ctx.report([...path, 'chunks'], 'expected "chunks" only together with "text" or "json" (they split that content); found neither');
    } else if (!hasError && reply.chunks.every((c) => typeof c === 'string')) {
      const content = hasText ? reply.text : jsonOk ? JSON.stringify(reply.json) : undefined;
      const joined = (reply.chunks as string[]).join('');
      if (typeof content === 'string' && joined !== content)
        ctx.report(
          [...path, 'chunks'],
          `expected chunks that concatenate to the ${hasText ? 'text' : 'compact JSON'} ${found(content)}; they join to ${found(joined)}`,
        );
    }
  }
  replySize(reply, path, jsonOk, ctx);
  citationsInText(reply, path, hasText ? reply.text : jsonOk ? JSON.stringify(reply.json) : undefined, ctx);
  if (Array.isArray(reply.toolCalls)) {
    const ids = new Map<string, number>();
    reply.toolCalls.forEach((call: unknown, i) => {
      if (!isObj(call) || typeof call.id !== 'string' || call.id.trim() === '' || call.id.length > TOOL_CALL_ID_MAX) return;
      const first = ids.get(call.id);
      if (first === undefined) ids.set(call.id, i);
      else
        ctx.report(
          [...path, 'toolCalls', i, 'id'],
          `expected tool call ids unique in a reply; found "${call.id}" again (first at ${pointer([...path, 'toolCalls', first, 'id'])})`,
        );
    });
  }
}

/** Each citation's text occurs in the reply's content, after the previous citation's. */
function citationsInText(reply: Obj, path: Path, content: unknown, ctx: RuleContext): void {
  if (!Array.isArray(reply.citations)) return;
  if (typeof content !== 'string') {
    if (reply.citations.length > 0)
      ctx.report([...path, 'citations'], 'expected "citations" only together with "text" or "json" (they cite spans of it); found neither');
    return;
  }
  let from = 0;
  reply.citations.forEach((citation: unknown, i) => {
    if (!isObj(citation) || typeof citation.text !== 'string' || citation.text === '') return;
    const at = content.indexOf(citation.text, from);
    if (at < 0) {
      ctx.report(
        [...path, 'citations', i, 'text'],
        `expected cited words that occur in the reply's text${i > 0 ? ' after the previous citation' : ''}; found ${found(citation.text)}`,
      );
      return;
    }
    from = at + citation.text.length;
  });
}

/** A reply within the per-reply byte limit, its chunk list within the per-stream one. */
function replySize(reply: Obj, path: Path, jsonOk: boolean, ctx: RuleContext): void {
  const { replyBytes, streamChunks } = ctx.limits;
  const overLimit = (what: string, bytes: number): string =>
    `expected ${what} of at most ${sizeText(replyBytes)} of UTF-8 (the per-reply limit; raise it with the ` +
    `maxReplyBytes option or --max-reply-bytes); found ${sizeText(bytes)}`;
  const parts: [string, number][] = [];
  if (typeof reply.text === 'string') parts.push(['text', Buffer.byteLength(reply.text)]);
  else if (jsonOk && reply.json !== undefined) parts.push(['json', Buffer.byteLength(JSON.stringify(reply.json))]);
  if (typeof reply.reasoning === 'string') parts.push(['reasoning', Buffer.byteLength(reply.reasoning)]);
  let args = 0;
  if (Array.isArray(reply.toolCalls)) {
    reply.toolCalls.forEach((call: unknown, i) => {
      // Arguments that are not JSON (a value built in code may contain itself) get the JSON rule's problem.
      if (!isObj(call) || call.arguments === undefined || !isJsonValue(call.arguments)) return;
      const text = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      if (typeof text !== 'string') return;
      const bytes = Buffer.byteLength(text);
      args += bytes;
      if (bytes > replyBytes) ctx.report([...path, 'toolCalls', i, 'arguments'], overLimit('tool-call arguments', bytes));
    });
  }
  if (args > 0) parts.push(['tool arguments', args]);
  if (isObj(reply.hostFields) && isJsonValue(reply.hostFields))
    parts.push(['hostFields', Buffer.byteLength(JSON.stringify(reply.hostFields))]);
  let total = 0;
  for (const [key, bytes] of parts) {
    total += bytes;
    if (bytes > replyBytes && key !== 'tool arguments') ctx.report([...path, key], overLimit(`a reply ${key}`, bytes));
  }
  if (total > replyBytes && parts.every(([, bytes]) => bytes <= replyBytes)) {
    const detail = parts.map(([key, bytes]) => `${key} ${bytes.toLocaleString('en-US')}`).join(', ');
    ctx.report(path, `${overLimit('a reply (text or JSON, reasoning and tool arguments together)', total)}: ${detail}`);
  }
  if (Array.isArray(reply.chunks) && reply.chunks.length > streamChunks) {
    ctx.report(
      [...path, 'chunks'],
      `expected at most ${streamChunks.toLocaleString('en-US')} stream chunks (the per-stream limit; raise it with the ` +
        `maxStreamChunks option or --max-stream-chunks); found ${reply.chunks.length.toLocaleString('en-US')}`,
    );
  }
}

export function textMatchRule(match: Obj, path: Path, ctx: RuleContext): void {
  const modes = TEXT_MODES.filter((k) => has(match, k));
  if (modes.length !== 1)
    ctx.report(path, `expected exactly one of ${quoteList(TEXT_MODES)}; found ${modes.length ? quoteList(modes) : 'none'}`);
  if (has(match, 'flags')) {
    if (!has(match, 'matches')) ctx.report([...path, 'flags'], 'expected "flags" only together with "matches"; found no "matches"');
    if (typeof match.flags === 'string' && /[gy]/.test(match.flags)) {
      ctx.report([...path, 'flags'], `expected flags among d, i, m, s, u, v (g and y make matching stateful); found "${match.flags}"`);
      return;
    }
  }
  if (typeof match.matches === 'string' && (match.flags === undefined || typeof match.flags === 'string')) {
    try {
      new RegExp(match.matches, match.flags as string | undefined);
    } catch (error) {
      const at = match.flags !== undefined && /flags/i.test((error as Error).message) ? 'flags' : 'matches';
      ctx.report([...path, at], `expected a valid JavaScript regular expression; ${(error as Error).message}`);
    }
  }
}

function jsonPathProblem(path: string): string | undefined {
  if (!path.startsWith('$')) return `expected a JSON path starting with "$" (e.g. "$.city"); found ${found(path)}`;
  let at = 1;
  while (at < path.length) {
    JSON_PATH_SEGMENT.lastIndex = at;
    if (!JSON_PATH_SEGMENT.exec(path)) {
      return `expected a JSON path of .name, [index], ['name'] segments after "$"; found ${found(path.slice(at))} at character ${at + 1} of ${found(path)}`;
    }
    at = JSON_PATH_SEGMENT.lastIndex;
  }
  return undefined;
}

/** Every rule by name: the format's plan (fixture-plan.generated.ts) names the rules it applies. */
export const RULES_BY_NAME: Readonly<Record<string, Rule>> = {
  jsonRule,
  stepIdRule,
  faultRule,
  headerNamesRule,
  messageRule,
  toolResultRule,
  presetCallRule,
  presetResultRule,
  jsonPathRule,
  uniqueScenarioNames,
  scenariosOrEmbeddings,
  scriptedVectorRule,
  scriptedImageRule,
  replyImageRule,
  scriptedVideoRule,
  scenarioRule,
  replyRule,
  textMatchRule,
  ...AUDIO_RULES,
  ...RECORDING_RULES,
};
