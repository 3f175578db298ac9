// Checks a scripted Reply against what the ChatRequest demands (declared tools and their argument
// schemas, tool choice, parallel calls, requested output format) before the reply is consumed, so
// a script that a real provider could never produce is reported instead of sent.

import type { ChatRequest, JsonSchema, JsonValue, Reply, ScriptedToolCall, ToolDefinition } from './model.js';
import { compileSchema, isSchemaError, parseJson } from './schema.js';
import type { SchemaProblem } from './schema.js';

const MAX_CALL_ID_LENGTH = 128;
/** Problems quoted in one reason; the rest are counted. */
const MAX_PROBLEMS_SHOWN = 3;

/** null when the reply satisfies the request, else one reason a person can act on. */
export function checkReplyContract(request: ChatRequest, reply: Reply): string | null {
  // A scripted failure is sent as an error response; nothing else in it is used.
  if (reply.error !== undefined) return null;
  if (reply.images !== undefined && reply.images.length > 0 && request.imageOutput === undefined) {
    return 'the reply has images but the request does not ask for image output (Gemini: generationConfig.responseModalities with "IMAGE"); no other dialect answers images in a chat reply';
  }
  return checkToolCalls(request, reply) ?? checkContent(request, reply);
}

// ---------- tool calls ----------

function checkToolCalls(request: ChatRequest, reply: Reply): string | null {
  const calls = reply.toolCalls;
  const choice = request.toolChoice;
  if (calls === undefined || calls.length === 0) {
    if (choice.type === 'required') {
      const reason = 'the request requires a tool call (tool choice "required") but the reply makes none';
      // How the Vercel AI SDK's Bedrock provider asks for structured output.
      if (request.tools.length === 1 && request.tools[0].name === 'json')
        return `${reason}: its one tool, "json", is how the Vercel AI SDK asks Bedrock for structured output, so script a call of it (callsTool('json', {…}), toolCalls: [{ name: json, arguments: {…} }]) with the object as its arguments`;
      return reason;
    }
    if (choice.type === 'named') {
      return `the request requires a call to tool "${choice.name}" (named tool choice) but the reply makes none`;
    }
    return null;
  }
  if (!Array.isArray(calls)) return "the reply's toolCalls must be a list";

  const tools = request.tools;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    if (call === null || typeof call !== 'object' || typeof call.name !== 'string' || call.name === '') {
      return `${callLabel(i, undefined)} has no tool name`;
    }
  }
  if (tools.length === 0) {
    return `the reply calls tool "${calls[0].name}" but the request declares no tools`;
  }
  if (choice.type === 'none') {
    return `the request sets tool choice "none" but the reply calls tool "${calls[0].name}"`;
  }

  const resolved: ToolDefinition[] = new Array<ToolDefinition>(calls.length);
  for (let i = 0; i < calls.length; i++) {
    const tool = findTool(tools, calls[i].name);
    if (tool === undefined) {
      return `${callLabel(i, calls[i].name)}: tool "${calls[i].name}" is not declared; declared tools: ${declaredNames(tools)}`;
    }
    resolved[i] = tool;
  }

  if (choice.type === 'named') {
    for (let i = 0; i < calls.length; i++) {
      if (calls[i].name !== choice.name) {
        return `the request requires tool "${choice.name}" (named tool choice) but ${callLabel(i, calls[i].name)} calls "${calls[i].name}"`;
      }
    }
  }

  if (request.parallelToolCalls === false && calls.length > 1) {
    return `the request disables parallel tool calls but the reply makes ${calls.length} (${calls.map((c) => c.name).join(', ')}); script one call per reply`;
  }

  const idReason = checkCallIds(calls);
  if (idReason !== null) return idReason;

  for (let i = 0; i < calls.length; i++) {
    const reason = checkArguments(i, calls[i], resolved[i]);
    if (reason !== null) return reason;
  }
  return null;
}

function findTool(tools: ToolDefinition[], name: string): ToolDefinition | undefined {
  for (let i = 0; i < tools.length; i++) if (tools[i].name === name) return tools[i];
  return undefined;
}

function declaredNames(tools: ToolDefinition[]): string {
  let out = '';
  for (let i = 0; i < tools.length; i++) out += (i === 0 ? '' : ', ') + tools[i].name;
  return out;
}

function callLabel(i: number, name: string | undefined): string {
  return name === undefined ? `tool call #${i + 1}` : `tool call #${i + 1} ("${name}")`;
}

function checkCallIds(calls: ScriptedToolCall[]): string | null {
  let seen: Set<string> | undefined;
  for (let i = 0; i < calls.length; i++) {
    const id: unknown = calls[i].id;
    if (id === undefined) continue;
    const label = callLabel(i, calls[i].name);
    if (typeof id !== 'string') return `${label}: the call id must be a string`;
    if (id.trim() === '') return `${label}: the call id is blank; omit it to have one assigned`;
    if (id.length > MAX_CALL_ID_LENGTH) {
      return `${label}: the call id is ${id.length} characters long; at most ${MAX_CALL_ID_LENGTH} are allowed`;
    }
    if (calls.length > 1) {
      seen ??= new Set<string>();
      if (seen.has(id)) return `${label}: the call id "${id}" is used by another call in the same reply`;
      seen.add(id);
    }
  }
  return null;
}

function checkArguments(i: number, call: ScriptedToolCall, tool: ToolDefinition): string | null {
  const label = callLabel(i, call.name);
  let args: JsonValue;
  if (call.arguments === undefined) {
    args = {};
  } else if (typeof call.arguments === 'string') {
    const parsed = parseJson(call.arguments);
    if (!parsed.ok) {
      return `${label}: the arguments are a string sent verbatim, and it is not valid JSON (${parsed.error}); give an object, or a JSON text`;
    }
    args = parsed.value;
  } else {
    args = call.arguments;
  }
  const compiled = compileSchema(schemaOf(tool.parameters));
  if (isSchemaError(compiled)) {
    return `tool "${tool.name}" declares a schema Understudy cannot use: ${compiled.error}`;
  }
  const problems = compiled.problems(args);
  if (problems.length === 0) return null;
  return `${label}: the arguments do not match the tool's declared parameters: ${summarise(problems, args)}`;
}

function schemaOf(schema: JsonSchema | undefined): JsonSchema {
  return schema === undefined || schema === null ? {} : schema;
}

// ---------- content ----------

/** What a reply says on its own, whatever the request: its content, or why it cannot be sent. */
interface ReplyContent {
  content: string | undefined;
  reason: string | null;
}

// Scripted replies are immutable once loaded and answer many requests: judge each one once.
const replyContents = new WeakMap<Reply, ReplyContent>();

function replyContent(reply: Reply): ReplyContent {
  let known = replyContents.get(reply);
  if (!known) replyContents.set(reply, (known = judgeReplyContent(reply)));
  return known;
}

function judgeReplyContent(reply: Reply): ReplyContent {
  const hasText = reply.text !== undefined && reply.text !== null;
  const hasJson = reply.json !== undefined;
  if (hasText && hasJson) {
    return { content: undefined, reason: 'the reply sets both text and json; give one (json is sent as its compact JSON text)' };
  }
  if (hasText && typeof reply.text !== 'string') return { content: undefined, reason: "the reply's text must be a string" };

  let content: string | undefined;
  if (hasJson) content = JSON.stringify(reply.json);
  else if (hasText) content = reply.text as string;

  const chunks = reply.chunks;
  if (chunks !== undefined) {
    if (content === undefined) return { content, reason: 'the reply gives chunks but no text or json for them to spell' };
    const reason = checkChunks(chunks, content);
    if (reason !== null) return { content, reason };
  }
  return { content, reason: null };
}

function checkContent(request: ChatRequest, reply: Reply): string | null {
  const { content, reason } = replyContent(reply);
  if (reason !== null) return reason;
  const hasJson = reply.json !== undefined;

  const output = request.output;
  if (output.type !== 'json_object' && output.type !== 'json_schema') return null;
  // Only tool calls and no content is a valid answer under JSON output; so is no content at all.
  if (!hasJson && (content === undefined || content === '')) return null;

  let value: JsonValue;
  if (hasJson) {
    value = reply.json as JsonValue;
  } else {
    const parsed = parseJson(content as string);
    if (!parsed.ok) {
      return `the request asks for JSON output (${output.type}) but the reply text is not valid JSON (${parsed.error}): ${excerpt(content as string)}`;
    }
    value = parsed.value;
  }

  if (output.type === 'json_object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return `the request asks for a JSON object (json_object) but the reply content is ${kindOf(value)}`;
    }
    return null;
  }

  const compiled = compileSchema(schemaOf(output.schema));
  const name = output.name === undefined ? '' : ` "${output.name}"`;
  if (isSchemaError(compiled)) {
    return `the request's output schema${name} is one Understudy cannot use: ${compiled.error}`;
  }
  const problems = compiled.problems(value);
  if (problems.length === 0) return null;
  return `the reply content does not match the requested output schema${name}: ${summarise(problems, value)}`;
}

function checkChunks(chunks: unknown, content: string): string | null {
  if (!Array.isArray(chunks)) return "the reply's chunks must be a list of strings";
  let joined = '';
  for (let i = 0; i < chunks.length; i++) {
    const c: unknown = chunks[i];
    if (typeof c !== 'string') return `chunk #${i + 1} of the reply is not a string`;
    joined += c;
  }
  if (joined === content) return null;
  const n = Math.min(joined.length, content.length);
  let at = 0;
  while (at < n && joined.charCodeAt(at) === content.charCodeAt(at)) at++;
  return (
    `the reply's chunks join to ${joined.length} characters but the content has ${content.length}; ` +
    `they first differ at offset ${at} (chunks: ${excerpt(joined.slice(at), 20)}, content: ${excerpt(content.slice(at), 20)})`
  );
}

// ---------- wording ----------

function summarise(problems: SchemaProblem[], root: JsonValue): string {
  let out = '';
  const shown = Math.min(problems.length, MAX_PROBLEMS_SHOWN);
  for (let i = 0; i < shown; i++) {
    const p = problems[i];
    out += (i === 0 ? '' : '; ') + p.text + actual(p, root);
  }
  if (problems.length > shown) out += `; and ${problems.length - shown} more`;
  return out;
}

/** ` (got 42)` for a scalar at the problem's path; for containers only when the type is the issue. */
function actual(p: SchemaProblem, root: JsonValue): string {
  const found = atPointer(root, p.path);
  if (!found.ok) return '';
  const v = found.value;
  if (v !== null && typeof v === 'object') {
    return p.keyword === 'type' ? ` (got ${kindOf(v)})` : '';
  }
  return ` (got ${clip(JSON.stringify(v), 60)})`;
}

function atPointer(root: JsonValue, pointer: string): { ok: true; value: JsonValue } | { ok: false } {
  if (pointer === '') return { ok: true, value: root };
  let cur: JsonValue = root;
  const parts = pointer.split('/');
  for (let i = 1; i < parts.length; i++) {
    const key = parts[i].replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return { ok: false };
    if (Array.isArray(cur)) {
      const idx = Number(key);
      if (!Number.isInteger(idx) || idx < 0 || idx >= cur.length) return { ok: false };
      cur = cur[idx];
    } else {
      if (!Object.prototype.hasOwnProperty.call(cur, key)) return { ok: false };
      cur = cur[key];
    }
  }
  return { ok: true, value: cur };
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return typeof v;
  }
}

function clip(s: string, max: number): string {
  return s.length > max ? s.slice(0, max) + '…' : s;
}

function excerpt(s: string, max = 80): string {
  return JSON.stringify(clip(s, max));
}
