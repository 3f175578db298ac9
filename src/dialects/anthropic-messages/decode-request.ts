// Checks a Messages API request (its `anthropic-version` header and JSON body) the way Anthropic
// does — the API's own messages where they are known, its `path: problem` style otherwise — and
// decodes it into the neutral ChatRequest.
//
// Mapping: `system` (string or text blocks) becomes a leading system message; a user message's
// `tool_result` blocks each become a neutral `tool` message (so "after the latest user message"
// means what it means on the other wires), its other blocks a `user` message, in wire order;
// `thinking` blocks become reasoning parts; documents, search results and redacted thinking are
// accepted and left out of the neutral record. `cache_control` is checked wherever it may appear
// and otherwise ignored (prompt caching is reported as 0 for now).

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import type { ChatRequest, JsonValue, Message, OutputFormat, Part, ToolChoice, ToolDefinition } from '../../core/model.js';
import { checkSchema as checkDeclaredSchema, MAX_DECLARED_SCHEMAS } from '../../core/schema.js';
import type { WireContext } from '../dialect.js';

/** Versions the API accepts in `anthropic-version`. */
export const API_VERSIONS: ReadonlySet<string> = new Set(['2023-01-01', '2023-06-01', '2026-10-21']);
/** The version SDK 1.x sends; it no longer accepts temperature, top_p and top_k. */
export const VERSION_2026 = '2026-10-21';
/** What a request without the header is read as, in a zero-config session. */
export const DEFAULT_VERSION = '2023-06-01';

const BLOCK_TAGS = [
  'text',
  'image',
  'document',
  'search_result',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'container_upload',
];
const SERVER_BLOCKS = new Set(BLOCK_TAGS.slice(8));
const TOOL_RESULT_TAGS = ['text', 'image', 'search_result', 'document', 'tool_reference'];
const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
/** Type prefixes of Anthropic's server tools and Anthropic-defined client tools. */
const BUILT_IN_TOOL = /^(web_search|web_fetch|code_execution|bash|text_editor|computer|memory|tool_search_tool|browser|mcp)/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
/** The largest `max_tokens` any current model takes; the API's own limit is the model's. */
export const MAX_OUTPUT_TOKENS = 128_000;

/** The request members of the Messages API (and its betas, as the SDKs type them); any other is an
 * extra input the API does not permit. */
const REQUEST_FIELDS = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'metadata',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'output_format',
  'service_tier',
  'cache_control',
  'container',
  'context_management',
  'mcp_servers',
  'inference_geo',
  'speed',
  'diagnostics',
  'compaction',
  'thread',
  'fallbacks',
  'fallback_credit_token',
  'billing_policy',
  'user_profile_id',
  'workspace_id',
]);
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;

type Obj = Record<string, unknown>;

class WireError extends Error {
  constructor(readonly neutral: NeutralError) {
    super(neutral.message);
  }
}

function fail(path: string, problem: string): never {
  throw new WireError(invalidRequest(path ? `${path}: ${problem}` : problem, path || null));
}

// ---------- pydantic-style checks ----------

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

function quoted(values: readonly string[]): string {
  const q = values.map((v) => `'${v}'`);
  return q.length === 1 ? q[0] : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

function required(o: Obj, key: string, path: string): unknown {
  const value = o[key];
  if (value === undefined) fail(path ? `${path}.${key}` : key, 'Field required');
  return value;
}

function str(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, 'Input should be a valid string');
  return value;
}

function bool(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'Input should be a valid boolean');
  return value;
}

function num(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'Input should be a valid number');
  return value;
}

function int(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'Input should be a valid integer');
  if (Math.abs(value) > Number.MAX_SAFE_INTEGER) fail(path, 'Input should be a valid integer, unable to parse number as an integer');
  if (!Number.isInteger(value)) fail(path, 'Input should be a valid integer, got a number with a fractional part');
  return value;
}

function obj(value: unknown, path: string): Obj {
  if (!isObject(value)) fail(path, 'Input should be a valid dictionary');
  return value;
}

function list(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, 'Input should be a valid list');
  return value;
}

function literal<T extends string>(value: unknown, values: readonly T[], path: string): T {
  if (typeof value !== 'string' || !values.includes(value as T)) fail(path, `Input should be ${quoted(values)}`);
  return value as T;
}

/** The `type` discriminator of a tagged union member. */
function tag(o: Obj, tags: readonly string[], path: string): string {
  const type = o.type;
  if (type === undefined) fail(path, "Unable to extract tag using discriminator 'type'");
  if (typeof type !== 'string' || !tags.includes(type)) {
    fail(
      path,
      `Input tag '${String(type)}' found using 'type' does not match any of the expected tags: ${tags.map((t) => `'${t}'`).join(', ')}`,
    );
  }
  return type;
}

/** Set while decoding when any `cache_control` marker was seen (decoding is synchronous). */
let sawCacheControl = false;

function cacheControl(value: unknown, path: string): void {
  if (absent(value)) return;
  sawCacheControl = true;
  const c = obj(value, path);
  literal(required(c, 'type', path), ['ephemeral'], `${path}.type`);
  if (!absent(c.ttl)) literal(c.ttl, ['5m', '1h'], `${path}.ttl`);
}

function checkSchema(schema: Obj, path: string): void {
  // Checked, not compiled: most declared schemas are never validated against (core/schema.ts).
  const invalid = checkDeclaredSchema(schema);
  if (invalid) fail(path, `JSON schema is invalid: ${invalid.error}`);
}

// ---------- header ----------

/** The request's API version; a missing header is a 400 except in zero-config sessions. */
export function apiVersion(wire: WireContext): string {
  const raw = wire.headers['anthropic-version'];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (value === undefined || value === '') {
    if (wire.state.zeroConfig?.()) return DEFAULT_VERSION;
    fail('', 'anthropic-version: header is required');
  }
  if (!API_VERSIONS.has(value)) fail('', `anthropic-version: "${value}" is not a valid version`);
  return value;
}

// ---------- content ----------

interface Turn {
  role: 'user' | 'assistant' | 'system';
  uses: { id: string; message: number }[];
  results: { id: string; path: string }[];
}

interface Scope {
  v2026: boolean;
  /** Tool names by call id, from the tool_use blocks seen so far. */
  callNames: Map<string, string>;
}

function imagePart(block: Obj, path: string): Part {
  const source = obj(required(block, 'source', path), `${path}.source`);
  const kind = tag(source, ['base64', 'url', 'file'], `${path}.source`);
  cacheControl(block.cache_control, `${path}.cache_control`);
  if (kind === 'base64') {
    const mediaType = literal(required(source, 'media_type', `${path}.source`), IMAGE_MEDIA_TYPES, `${path}.source.media_type`);
    const data = str(required(source, 'data', `${path}.source`), `${path}.source.data`);
    return { type: 'image', url: `data:${mediaType};base64,${data}`, mediaType };
  }
  if (kind === 'url') return { type: 'image', url: str(required(source, 'url', `${path}.source`), `${path}.source.url`) };
  return { type: 'image', url: `file:${str(required(source, 'file_id', `${path}.source`), `${path}.source.file_id`)}` };
}

function textBlock(block: Obj, path: string, role: string, finalAssistant: boolean, scope: Scope): string {
  const text = str(required(block, 'text', path), `${path}.text`);
  cacheControl(block.cache_control, `${path}.cache_control`);
  if (!absent(block.citations)) {
    const citations = list(block.citations, `${path}.citations`);
    if (scope.v2026 && role === 'user' && citations.length > 0) {
      fail(`${path}.citations`, `citations on user text blocks are not accepted under anthropic-version ${VERSION_2026}`);
    }
  }
  if (!finalAssistant) {
    if (text.length === 0) fail('messages', 'text content blocks must be non-empty');
    if (text.trim() === '') fail('messages', 'text content blocks must contain non-whitespace text');
  }
  return text;
}

function toolResultContent(value: unknown, path: string): string {
  if (absent(value)) return '';
  if (typeof value === 'string') return value;
  let text = '';
  list(value, path).forEach((raw, i) => {
    const p = `${path}.${i}`;
    const block = obj(raw, p);
    const type = tag(block, TOOL_RESULT_TAGS, p);
    if (type === 'text') text += str(required(block, 'text', p), `${p}.text`);
    else if (type === 'image') imagePart(block, p);
    else if (type === 'tool_reference') str(required(block, 'tool_name', p), `${p}.tool_name`);
    cacheControl(block.cache_control, `${p}.cache_control`);
  });
  return text;
}

/** Decodes one block into `parts`, recording tool uses and results on the turn. */
function decodeBlock(
  raw: unknown,
  path: string,
  role: Turn['role'],
  index: number,
  finalAssistant: boolean,
  turn: Turn,
  scope: Scope,
): Part | null {
  const block = obj(raw, path);
  const type = tag(block, role === 'system' ? ['text'] : BLOCK_TAGS, path);
  if (SERVER_BLOCKS.has(type)) {
    fail(path, `Understudy does not support server tools, so '${type}' blocks cannot appear in the conversation`);
  }
  const onlyIn = (wanted: 'user' | 'assistant') => {
    if (role !== wanted) fail(path, `'${type}' blocks are only allowed in ${wanted} messages`);
  };
  switch (type) {
    case 'text': {
      const text = textBlock(block, path, role, finalAssistant, scope);
      return text.length > 0 ? { type: 'text', text } : null;
    }
    case 'image':
      return imagePart(block, path);
    case 'document':
      if (scope.v2026 && role === 'assistant') {
        fail(path, `document blocks are not accepted in assistant messages under anthropic-version ${VERSION_2026}`);
      }
      obj(required(block, 'source', path), `${path}.source`);
      cacheControl(block.cache_control, `${path}.cache_control`);
      return null;
    case 'search_result':
      str(required(block, 'source', path), `${path}.source`);
      str(required(block, 'title', path), `${path}.title`);
      list(required(block, 'content', path), `${path}.content`);
      cacheControl(block.cache_control, `${path}.cache_control`);
      return null;
    case 'thinking':
      onlyIn('assistant');
      str(required(block, 'signature', path), `${path}.signature`);
      return { type: 'reasoning', text: str(required(block, 'thinking', path), `${path}.thinking`) };
    case 'redacted_thinking':
      onlyIn('assistant');
      str(required(block, 'data', path), `${path}.data`);
      return null;
    case 'tool_use': {
      onlyIn('assistant');
      const id = str(required(block, 'id', path), `${path}.id`);
      if (!TOOL_USE_ID.test(id)) fail(`${path}.id`, "String should match pattern '^[a-zA-Z0-9_-]+$'");
      if (scope.callNames.has(id)) fail(path, `\`tool_use\` ids must be unique; "${id}" is used twice`);
      const name = str(required(block, 'name', path), `${path}.name`);
      const input = obj(required(block, 'input', path), `${path}.input`);
      cacheControl(block.cache_control, `${path}.cache_control`);
      scope.callNames.set(id, name);
      turn.uses.push({ id, message: index });
      return { type: 'tool_call', id, name, argumentsText: JSON.stringify(input), arguments: input as JsonValue };
    }
    case 'tool_result': {
      onlyIn('user');
      const id = str(required(block, 'tool_use_id', path), `${path}.tool_use_id`);
      if (!TOOL_USE_ID.test(id)) fail(`${path}.tool_use_id`, "String should match pattern '^[a-zA-Z0-9_-]+$'");
      const content = toolResultContent(block.content, `${path}.content`);
      const isError = absent(block.is_error) ? false : bool(block.is_error, `${path}.is_error`);
      cacheControl(block.cache_control, `${path}.cache_control`);
      turn.results.push({ id, path });
      return { type: 'tool_result', callId: id, name: scope.callNames.get(id), content, isError };
    }
    default:
      return null;
  }
}

function endsWithWhitespace(content: unknown): boolean {
  if (typeof content === 'string') return /\s$/.test(content);
  if (!Array.isArray(content) || content.length === 0) return false;
  const last: unknown = content[content.length - 1];
  return isObject(last) && last.type === 'text' && typeof last.text === 'string' && /\s$/.test(last.text);
}

function decodeMessages(raw: unknown, scope: Scope): Message[] {
  if (raw === undefined) fail('messages', 'Field required');
  const wire = list(raw, 'messages');
  if (wire.length === 0) fail('messages', 'at least one message is required');
  const messages: Message[] = [];
  const turns: Turn[] = [];

  wire.forEach((rawMessage, i) => {
    const path = `messages.${i}`;
    const m = obj(rawMessage, path);
    const role = literal(required(m, 'role', path), ['user', 'assistant', 'system'], `${path}.role`);
    const content = required(m, 'content', path);
    const finalAssistant = role === 'assistant' && i === wire.length - 1;

    // The API combines consecutive user or assistant turns; tool pairing is checked per turn.
    let turn = turns[turns.length - 1];
    if (!turn || turn.role !== role || role === 'system') turns.push((turn = { role, uses: [], results: [] }));

    const parts: Part[] = [];
    if (typeof content === 'string') {
      if (content.length === 0 && !finalAssistant) {
        fail(path, 'all messages must have non-empty content except for the optional final assistant message');
      }
      if (content.length > 0 && content.trim() === '' && !finalAssistant)
        fail('messages', 'text content blocks must contain non-whitespace text');
      if (content.length > 0) parts.push({ type: 'text', text: content });
    } else {
      const blocks = list(content, `${path}.content`);
      if (blocks.length === 0 && !finalAssistant) {
        fail(path, 'all messages must have non-empty content except for the optional final assistant message');
      }
      blocks.forEach((block, j) => {
        const part = decodeBlock(block, `${path}.content.${j}`, role, i, finalAssistant, turn, scope);
        if (part) parts.push(part);
      });
    }

    if (role !== 'user') {
      messages.push({ role, parts });
      return;
    }
    // Each tool result is a neutral tool message; the other blocks stay a user message, in order.
    let pending: Part[] = [];
    let pushed = false;
    for (const part of parts) {
      if (part.type !== 'tool_result') {
        pending.push(part);
        continue;
      }
      if (pending.length > 0) messages.push({ role: 'user', parts: pending });
      pending = [];
      messages.push({ role: 'tool', parts: [part] });
      pushed = true;
    }
    if (pending.length > 0 || !pushed) messages.push({ role: 'user', parts: pending });
  });

  for (let t = 0; t < turns.length; t++) {
    const turn = turns[t];
    if (turn.role === 'user' && turn.results.length > 0) {
      const previous = turns[t - 1];
      const allowed = new Set(previous?.role === 'assistant' ? previous.uses.map((u) => u.id) : []);
      for (const result of turn.results) {
        if (!allowed.has(result.id)) {
          fail(
            result.path,
            `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${result.id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        }
      }
    }
    if (turn.role === 'assistant' && turn.uses.length > 0) {
      const next = turns[t + 1];
      const answered = new Set(next?.role === 'user' ? next.results.map((r) => r.id) : []);
      const missing = turn.uses.filter((u) => !answered.has(u.id));
      if (missing.length > 0) {
        fail(
          `messages.${missing[0].message}`,
          `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.map((u) => u.id).join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
  }

  const last = obj(wire[wire.length - 1], `messages.${wire.length - 1}`);
  if (last.role === 'assistant' && endsWithWhitespace(last.content)) {
    fail('messages', 'final assistant content cannot end with trailing whitespace');
  }
  return messages;
}

function decodeSystem(raw: unknown): Message | null {
  if (absent(raw)) return null;
  if (typeof raw === 'string') return raw.length > 0 ? { role: 'system', parts: [{ type: 'text', text: raw }] } : null;
  if (!Array.isArray(raw)) fail('system', 'Input should be a valid string or a list of text blocks');
  const parts: Part[] = [];
  raw.forEach((rawBlock, i) => {
    const path = `system.${i}`;
    const block = obj(rawBlock, path);
    tag(block, ['text'], path);
    const text = str(required(block, 'text', path), `${path}.text`);
    cacheControl(block.cache_control, `${path}.cache_control`);
    if (!absent(block.citations)) list(block.citations, `${path}.citations`);
    if (text.length === 0) fail('system', 'text content blocks must be non-empty');
    parts.push({ type: 'text', text });
  });
  return parts.length > 0 ? { role: 'system', parts } : null;
}

// ---------- tools ----------

function decodeTools(raw: unknown): ToolDefinition[] {
  if (absent(raw)) return [];
  const names = new Set<string>();
  const declared = list(raw, 'tools');
  if (declared.length > MAX_DECLARED_SCHEMAS) {
    fail(
      'tools',
      `Understudy checks the schemas of at most ${MAX_DECLARED_SCHEMAS} tools per request; this request declares ${declared.length}`,
    );
  }
  const tools = declared.map((rawTool, i): ToolDefinition => {
    const path = `tools.${i}`;
    const tool = obj(rawTool, path);
    const type = tool.type;
    if (!absent(type) && type !== 'custom') {
      if (typeof type === 'string' && BUILT_IN_TOOL.test(type)) {
        fail(
          path,
          `Understudy does not support Anthropic's server and built-in tools (type '${type}'); declare a custom tool with a name and an input_schema`,
        );
      }
      fail(path, `Input tag '${String(type)}' found using 'type' does not match any of the expected tags: 'custom'`);
    }
    const at = `${path}.custom`;
    const name = str(required(tool, 'name', at), `${at}.name`);
    if (!TOOL_NAME.test(name)) fail(`${at}.name`, "String should match pattern '^[a-zA-Z0-9_-]{1,128}$'");
    const description = absent(tool.description) ? undefined : str(tool.description, `${at}.description`);
    const schema = obj(required(tool, 'input_schema', at), `${at}.input_schema`);
    if (schema.type !== 'object') fail(`${at}.input_schema.type`, "Input should be 'object'");
    checkSchema(schema, `${at}.input_schema`);
    cacheControl(tool.cache_control, `${at}.cache_control`);
    const strict = absent(tool.strict) ? undefined : bool(tool.strict, `${at}.strict`);
    for (const key of ['eager_input_streaming', 'defer_loading'] as const) if (!absent(tool[key])) bool(tool[key], `${at}.${key}`);
    if (!absent(tool.input_examples)) list(tool.input_examples, `${at}.input_examples`);
    names.add(name);
    return { name, description, parameters: schema, strict };
  });
  if (names.size !== tools.length) fail('tools', 'Tool names must be unique.');
  return tools;
}

function decodeToolChoice(raw: unknown, tools: ToolDefinition[]): { choice: ToolChoice; parallel: boolean } {
  if (absent(raw)) return { choice: { type: 'auto' }, parallel: true };
  const c = obj(raw, 'tool_choice');
  const type = tag(c, ['auto', 'any', 'tool', 'none'], 'tool_choice');
  const parallel =
    type === 'none' || absent(c.disable_parallel_tool_use)
      ? true
      : !bool(c.disable_parallel_tool_use, `tool_choice.${type}.disable_parallel_tool_use`);
  switch (type) {
    case 'any':
      if (tools.length === 0) fail('tool_choice', "tool_choice 'any' requires at least one tool in 'tools'");
      return { choice: { type: 'required' }, parallel };
    case 'tool': {
      const name = str(required(c, 'name', 'tool_choice.tool'), 'tool_choice.tool.name');
      if (!tools.some((t) => t.name === name)) fail('tool_choice.tool.name', `tool '${name}' is not among the tools declared in 'tools'`);
      return { choice: { type: 'named', name }, parallel };
    }
    case 'none':
      return { choice: { type: 'none' }, parallel };
    default:
      return { choice: { type: 'auto' }, parallel };
  }
}

// ---------- options ----------

function decodeOutput(body: Obj): OutputFormat {
  let format: unknown;
  let path = 'output_config.format';
  if (!absent(body.output_config)) {
    const config = obj(body.output_config, 'output_config');
    if (!absent(config.effort)) literal(config.effort, ['low', 'medium', 'high', 'xhigh', 'max'], 'output_config.effort');
    if (!absent(config.format)) format = config.format;
  }
  // `output_format` is the structured-outputs beta's name for the same thing, still accepted.
  if (format === undefined && !absent(body.output_format)) {
    format = body.output_format;
    path = 'output_format';
  }
  if (format === undefined) return { type: 'text' };
  const f = obj(format, path);
  literal(required(f, 'type', path), ['json_schema'], `${path}.type`);
  const schema = obj(required(f, 'schema', path), `${path}.schema`);
  checkSchema(schema, `${path}.schema`);
  return { type: 'json_schema', schema };
}

/** True when thinking is on (enabled or adaptive). */
function decodeThinking(raw: unknown, maxTokens: number): boolean {
  if (absent(raw)) return false;
  const t = obj(raw, 'thinking');
  const type = tag(t, ['enabled', 'disabled', 'adaptive', 'between_tools'], 'thinking');
  if (!absent(t.display)) literal(t.display, ['summarized', 'omitted'], `thinking.${type}.display`);
  if (type === 'enabled') {
    const budget = int(required(t, 'budget_tokens', 'thinking.enabled'), 'thinking.enabled.budget_tokens');
    if (budget < 1024) fail('thinking.enabled.budget_tokens', 'Input should be greater than or equal to 1024');
    if (maxTokens <= budget) fail('', '`max_tokens` must be greater than `thinking.budget_tokens`');
  }
  return type === 'enabled' || type === 'adaptive';
}

function decodeSampling(body: Obj, v2026: boolean): void {
  for (const key of ['temperature', 'top_p', 'top_k'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (v2026) {
      fail(key, `Extra inputs are not permitted (anthropic-version ${VERSION_2026} no longer accepts temperature, top_p or top_k)`);
    }
    if (key === 'top_k') {
      if (int(value, key) < 0) fail(key, 'Input should be greater than or equal to 0');
    } else {
      const n = num(value, key);
      if (n < 0) fail(key, 'Input should be greater than or equal to 0');
      if (n > 1) fail(key, 'Input should be less than or equal to 1');
    }
  }
}

function decodeMaxTokens(body: Obj, model: string): number {
  const value = int(required(body, 'max_tokens', ''), 'max_tokens');
  if (value < 0) fail('max_tokens', 'Input should be greater than or equal to 0');
  if (value > MAX_OUTPUT_TOKENS) {
    fail('', `max_tokens: ${value} > ${MAX_OUTPUT_TOKENS}, which is the maximum allowed number of output tokens for ${model}`);
  }
  if (value === 0) {
    fail('max_tokens', 'Understudy does not support max_tokens 0 (warming the prompt cache without an answer); ask for at least 1 token');
  }
  return value;
}

/** Options the API (or a beta) takes that change nothing in a scripted answer: type-checked only. */
function decodeBetaOptions(body: Obj): void {
  if (!absent(body.speed)) literal(body.speed, ['standard', 'fast'], 'speed');
  for (const key of ['inference_geo', 'user_profile_id', 'workspace_id'] as const) if (!absent(body[key])) str(body[key], key);
  if (!absent(body.container) && typeof body.container !== 'string') obj(body.container, 'container');
  for (const key of ['context_management', 'diagnostics', 'compaction', 'thread', 'fallbacks', 'billing_policy'] as const) {
    if (!absent(body[key])) obj(body[key], key);
  }
  if (!absent(body.fallback_credit_token) && typeof body.fallback_credit_token !== 'string') {
    obj(body.fallback_credit_token, 'fallback_credit_token');
  }
}

export function decodeMessagesRequest(body: unknown, wire: WireContext): ChatRequest | NeutralError {
  try {
    sawCacheControl = false;
    const v2026 = apiVersion(wire) === VERSION_2026;
    if (!isObject(body)) fail('', 'The request body must be a JSON object');
    const model = str(required(body, 'model', ''), 'model');
    if (model.length === 0) fail('model', 'String should have at least 1 character');
    for (const key in body) if (!REQUEST_FIELDS.has(key)) fail(key, 'Extra inputs are not permitted');
    const maxTokens = decodeMaxTokens(body, model);
    const scope: Scope = { v2026, callNames: new Map() };
    const messages = decodeMessages(body.messages, scope);
    const system = decodeSystem(body.system);
    const tools = decodeTools(body.tools);
    if (!absent(body.mcp_servers) && list(body.mcp_servers, 'mcp_servers').length > 0) {
      fail('mcp_servers', 'Understudy does not support MCP servers (server-side tools); declare custom tools instead');
    }
    const { choice, parallel } = decodeToolChoice(body.tool_choice, tools);
    const thinking = decodeThinking(body.thinking, maxTokens);
    if (thinking && (choice.type === 'required' || choice.type === 'named')) {
      fail('', 'Thinking may not be enabled when tool_choice forces tool use.');
    }
    const output = decodeOutput(body);
    decodeSampling(body, v2026);
    if (!absent(body.stop_sequences)) {
      list(body.stop_sequences, 'stop_sequences').forEach((s, i) => str(s, `stop_sequences.${i}`));
    }
    const stream = absent(body.stream) ? false : bool(body.stream, 'stream');
    if (!absent(body.metadata)) {
      const metadata = obj(body.metadata, 'metadata');
      if (!absent(metadata.user_id)) {
        if (str(metadata.user_id, 'metadata.user_id').length > 256) fail('metadata.user_id', 'String should have at most 256 characters');
      }
    }
    if (!absent(body.service_tier)) literal(body.service_tier, ['auto', 'standard_only'], 'service_tier');
    decodeBetaOptions(body);
    cacheControl(body.cache_control, 'cache_control');
    return {
      model,
      messages: system ? [system, ...messages] : messages,
      tools,
      toolChoice: choice,
      parallelToolCalls: parallel,
      output,
      stream,
      // Anthropic streams always end with usage.
      streamUsage: stream,
      maxOutputTokens: maxTokens,
      // Anthropic caches only where the request asks with cache_control.
      promptCaching: sawCacheControl ? 'marked' : 'none',
    };
  } catch (error) {
    if (error instanceof WireError) return error.neutral;
    throw error;
  }
}
