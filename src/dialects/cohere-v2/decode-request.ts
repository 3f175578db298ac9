// Checks a Cohere v2 Chat request the way Cohere does — every member of its request typed and
// ranged, an unknown member refused — and decodes it into the neutral ChatRequest: the messages
// (decode-messages.ts), tools, tool choice and output format (decode-tools.ts), and the documents a
// reply's citations may name.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, GroundingDocument } from '../../core/model.js';
import { given, isObject } from '../wire-kit/values.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { decodeMessages } from './decode-messages.js';
import { decodeResponseFormat, decodeToolChoice, decodeTools } from './decode-tools.js';
import {
  expectArray,
  expectBoolean,
  expectEnum,
  expectInteger,
  expectLength,
  expectNumber,
  expectObject,
  expectString,
  fail,
  requiredMember,
} from '../cohere/wording.js';

/** The members of Cohere's V2ChatRequest; any other is refused. */
const REQUEST_FIELDS = new Set([
  'model',
  'messages',
  'tools',
  'strict_tools',
  'documents',
  'citation_options',
  'response_format',
  'safety_mode',
  'max_tokens',
  'stop_sequences',
  'temperature',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'k',
  'p',
  'logprobs',
  'tool_choice',
  'thinking',
  'priority',
  'stream',
]);

const UNIT = { min: 0, max: 1 };
const POSITIVE = { min: 1 };
const NON_NEGATIVE = { min: 0 };
const TOP_K = { min: 0, max: 500 };
const TOP_P = { min: 0.01, max: 0.99 };
const STOP_SEQUENCES = { max: 5 };

export function decodeCohereChatRequest(body: unknown): ChatRequest | NeutralError {
  return refusalOr(() => decodeRequest(body));
}

/** The options that change nothing in a scripted answer: checked only. */
function checkOptions(body: Record<string, unknown>): void {
  // Cohere's own sentence for temperature.
  if (given(body.temperature)) {
    const t = expectNumber(body.temperature, 'temperature');
    if (t < 0 || t > 1) fail('temperature', 'temperature must be between 0 and 1.0 inclusive.');
  }
  for (const key of ['frequency_penalty', 'presence_penalty'] as const) if (given(body[key])) expectNumber(body[key], key, UNIT);
  if (given(body.p)) expectNumber(body.p, 'p', TOP_P);
  if (given(body.k)) expectInteger(body.k, 'k', TOP_K);
  if (given(body.seed)) expectInteger(body.seed, 'seed');
  if (given(body.priority)) expectInteger(body.priority, 'priority', NON_NEGATIVE);
  if (given(body.logprobs)) expectBoolean(body.logprobs, 'logprobs');
  if (given(body.safety_mode)) expectEnum(body.safety_mode, ['CONTEXTUAL', 'STRICT', 'OFF'], 'safety_mode');
  if (given(body.stop_sequences)) {
    expectLength(expectArray(body.stop_sequences, 'stop_sequences'), 'stop_sequences', STOP_SEQUENCES).forEach((s, i) =>
      expectString(s, `stop_sequences.${i}`),
    );
  }
  if (given(body.thinking)) {
    const thinking = expectObject(body.thinking, 'thinking');
    expectEnum(requiredMember(thinking, 'type', 'thinking'), ['enabled', 'disabled'], 'thinking.type');
    if (given(thinking.token_budget)) expectInteger(thinking.token_budget, 'thinking.token_budget', POSITIVE);
  }
  if (given(body.citation_options)) {
    const options = expectObject(body.citation_options, 'citation_options');
    if (given(options.mode)) expectEnum(options.mode, ['FAST', 'ACCURATE', 'OFF'], 'citation_options.mode');
  }
}

/** `documents`: strings or `{data, id?}` objects; one without an id is `doc:<index>`, a string
 * one's text its `text` field. */
function decodeDocuments(raw: unknown): GroundingDocument[] | undefined {
  if (!given(raw)) return undefined;
  const documents = expectArray(raw, 'documents');
  if (documents.length === 0) fail('documents', 'list of documents must not be empty');
  return documents.map((d, i): GroundingDocument => {
    if (typeof d === 'string') return { id: `doc:${i}`, fields: { text: d } };
    const document = expectObject(d, `documents.${i}`, 'a string or a document object');
    const fields = expectObject(requiredMember(document, 'data', `documents.${i}`), `documents.${i}.data`);
    const id = given(document.id) ? expectString(document.id, `documents.${i}.id`) : `doc:${i}`;
    return { id, fields };
  });
}

function decodeRequest(body: unknown): ChatRequest {
  if (!isObject(body)) fail('', 'the request body must be a JSON object');
  for (const key in body) if (!REQUEST_FIELDS.has(key)) fail(key, `unknown field: parameter ${key} is not a valid field`);
  if (body.model === undefined) fail('model', 'a model parameter is required for this endpoint.');
  const model = expectString(body.model, 'model');
  const messages = decodeMessages(requiredMember(body, 'messages', ''));
  const strict = given(body.strict_tools) ? expectBoolean(body.strict_tools, 'strict_tools') : undefined;
  const tools = decodeTools(body.tools, strict);
  const toolChoice = decodeToolChoice(body.tool_choice, tools);
  const documents = decodeDocuments(body.documents);
  const output = decodeResponseFormat(body.response_format, documents !== undefined);
  checkOptions(body);
  const maxOutputTokens = given(body.max_tokens) ? expectInteger(body.max_tokens, 'max_tokens', POSITIVE) : undefined;
  const stream = given(body.stream) ? expectBoolean(body.stream, 'stream') : false;
  return {
    model,
    messages,
    tools,
    toolChoice,
    // Cohere may call several tools in one turn and has no switch to stop it.
    parallelToolCalls: true,
    output,
    stream,
    // message-end always carries usage.
    streamUsage: stream,
    ...(maxOutputTokens !== undefined && { maxOutputTokens }),
    ...(documents && { documents }),
    // Cohere reports cached tokens without being asked (usage.cached_tokens).
    promptCaching: 'automatic',
  };
}
