// Checks an /api/chat or /api/generate body the way the Ollama server binds and checks it, and
// decodes it into the neutral ChatRequest. A request streams unless it says `"stream": false`.
// Generate's prompt (with its `system` and `images`) becomes a one-turn conversation.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, Message, Part } from '../../core/model.js';
import type { WireContext } from '../dialect.js';
import { given, isObject } from '../wire-kit/values.js';
import { refusalOr, reject } from '../wire-kit/wire-error.js';
import { decodeSharedMembers, type SharedMembers } from './decode-options.js';
import { decodeImages, decodeMessages, decodeTools } from './decode-messages.js';
import { listedName, strictCatalogue } from './model-catalogue.js';
import { expectArray, expectBoolean, expectInteger, expectString, goPath, refusal, rule } from './wording.js';

/** What the encoders need of a request besides the neutral fields: kept beside it, not in it. */
export interface OllamaRequestInfo {
  /** The reply's thinking is sent unless the request said `"think": false`. */
  thinking: boolean;
}

const INFO = new WeakMap<ChatRequest, OllamaRequestInfo>();
const DEFAULT_INFO: OllamaRequestInfo = { thinking: true };

export function requestInfo(request: ChatRequest): OllamaRequestInfo {
  return INFO.get(request) ?? DEFAULT_INFO;
}

function notAnObject(body: unknown, struct: string): never {
  const kind = Array.isArray(body) ? 'array' : typeof body === 'string' ? 'string' : typeof body === 'boolean' ? 'bool' : 'number';
  reject(refusal(`json: cannot unmarshal ${kind} into Go value of type api.${struct}`));
}

function neutral(model: string, messages: Message[], tools: ChatRequest['tools'], shared: SharedMembers): ChatRequest {
  const request: ChatRequest = {
    model,
    messages,
    tools,
    toolChoice: { type: 'auto' },
    parallelToolCalls: true,
    output: shared.output,
    stream: shared.stream,
    streamUsage: shared.stream,
    // Ollama reuses its KV cache without reporting it: no cached tokens are counted.
    promptCaching: 'none',
    ...(shared.maxOutputTokens !== undefined && { maxOutputTokens: shared.maxOutputTokens }),
  };
  if (shared.think === false) INFO.set(request, { thinking: false });
  return request;
}

// Both handlers look the model up once the body has bound, before anything else about it is checked.
function notInCatalogue(model: string, state: WireContext['state']): NeutralError | undefined {
  const strict = strictCatalogue(state);
  if (strict === undefined || strict.has(listedName(model))) return undefined;
  return { kind: 'not_found', status: 404, code: null, message: `model '${model}' not found`, param: 'model' };
}

function decodeChat(body: unknown, state: WireContext['state']): ChatRequest | NeutralError {
  if (!isObject(body)) notAnObject(body, 'ChatRequest');
  const model = given(body.model) ? expectString(body.model, goPath({ struct: 'ChatRequest', path: 'model', at: 'model' })) : '';
  const messages = decodeMessages(body.messages);
  const tools = decodeTools(body.tools);
  const shared = decodeSharedMembers(body, 'ChatRequest');
  if (model.trim() === '') rule('model is required', 'model');
  return notInCatalogue(model, state) ?? neutral(model, messages, tools, shared);
}

const GENERATE_STRINGS = ['prompt', 'suffix', 'system', 'template'] as const;

function decodeGenerate(body: unknown, state: WireContext['state']): ChatRequest | NeutralError {
  if (!isObject(body)) notAnObject(body, 'GenerateRequest');
  const field = (path: string) => goPath({ struct: 'GenerateRequest', path, at: path });
  const model = given(body.model) ? expectString(body.model, field('model')) : '';
  const text: Partial<Record<(typeof GENERATE_STRINGS)[number], string>> = {};
  for (const name of GENERATE_STRINGS) if (given(body[name])) text[name] = expectString(body[name], field(name));
  const raw = given(body.raw) ? expectBoolean(body.raw, field('raw')) : false;
  const context = given(body.context) ? expectArray(body.context, field('context'), '[]int') : [];
  context.forEach((token, i) => {
    if (token !== null) expectInteger(token, goPath({ struct: 'GenerateRequest', path: 'context', at: `context[${i}]` }));
  });
  const images = decodeImages(body.images, 'GenerateRequest', 'images', 'images');
  const shared = decodeSharedMembers(body, 'GenerateRequest');
  // The generate handler looks the model up by name: an empty one is not found.
  if (model.trim() === '') return { kind: 'not_found', status: 404, code: null, message: `model '${model}' not found`, param: 'model' };
  const missing = notInCatalogue(model, state);
  if (missing) return missing;
  if (raw && (text.template || text.system || context.length > 0)) rule('raw mode does not support template, system, or context');
  const messages: Message[] = [];
  if (text.system) messages.push({ role: 'system', parts: [{ type: 'text', text: text.system }] });
  const parts: Part[] = [{ type: 'text', text: text.prompt ?? '' }, ...images];
  messages.push({ role: 'user', parts });
  return neutral(model, messages, [], shared);
}

export function decodeOllamaRequest(body: unknown, wire: WireContext): ChatRequest | NeutralError {
  if (wire.operation === 'ollama.generate') return refusalOr(() => decodeGenerate(body, wire.state));
  return refusalOr(() => decodeChat(body, wire.state));
}

/** Streamed unless the body says `"stream": false` (a body that is not JSON streams too). */
export function ollamaRequestedStream(body: unknown): boolean {
  return !(isObject(body) && body.stream === false);
}
