// Checks a Cohere v1 Chat request the way Cohere does — every member of its request typed and
// ranged, an unknown member refused — and decodes it into the neutral ChatRequest: the
// conversation (decode-history.ts), the tools (decode-tools.ts) and the output format. v1 has no
// tool choice: the model may always call tools, several at once.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, OutputFormat } from '../../core/model.js';
import { usableSchema } from '../cohere/usable-schema.js';
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
import { given, isObject } from '../wire-kit/values.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import type { WireContext } from '../dialect.js';
import { deliveredCallIds, type DeliveredCallIds } from './call-ids.js';
import { decodeConversation } from './decode-history.js';
import { decodeTools } from './decode-tools.js';

/** The members of Cohere's v1 ChatRequest; any other is refused. */
const REQUEST_FIELDS = new Set([
  'message',
  'model',
  'preamble',
  'chat_history',
  'conversation_id',
  'prompt_truncation',
  'connectors',
  'search_queries_only',
  'documents',
  'citation_quality',
  'temperature',
  'max_tokens',
  'max_input_tokens',
  'k',
  'p',
  'seed',
  'stop_sequences',
  'frequency_penalty',
  'presence_penalty',
  'raw_prompting',
  'tools',
  'tool_results',
  'force_single_step',
  'response_format',
  'safety_mode',
  'stream',
]);

/** The model v1 answers with when the request names none. */
const DEFAULT_MODEL = 'command-r-plus';

const UNIT = { min: 0, max: 1 };
const POSITIVE = { min: 1 };
const NON_NEGATIVE = { min: 0 };
const TOP_K = { min: 0, max: 500 };
const TOP_P = { min: 0.01, max: 0.99 };
const STOP_SEQUENCES = { max: 5 };

export function decodeCohereV1ChatRequest(body: unknown, wire?: WireContext): ChatRequest | NeutralError {
  return refusalOr(() => decodeRequest(body, wire && deliveredCallIds(wire.state)));
}

/** The options that change nothing in a scripted answer: checked only. */
function checkOptions(body: Record<string, unknown>): void {
  if (given(body.temperature)) expectNumber(body.temperature, 'temperature', NON_NEGATIVE);
  for (const key of ['frequency_penalty', 'presence_penalty'] as const) if (given(body[key])) expectNumber(body[key], key, UNIT);
  if (given(body.p)) expectNumber(body.p, 'p', TOP_P);
  if (given(body.k)) expectInteger(body.k, 'k', TOP_K);
  if (given(body.seed)) expectInteger(body.seed, 'seed');
  if (given(body.max_input_tokens)) expectInteger(body.max_input_tokens, 'max_input_tokens', POSITIVE);
  for (const key of ['search_queries_only', 'raw_prompting', 'force_single_step'] as const) {
    if (given(body[key])) expectBoolean(body[key], key);
  }
  if (given(body.conversation_id)) expectString(body.conversation_id, 'conversation_id');
  if (given(body.prompt_truncation)) expectEnum(body.prompt_truncation, ['OFF', 'AUTO', 'AUTO_PRESERVE_ORDER'], 'prompt_truncation');
  if (given(body.citation_quality))
    expectEnum(body.citation_quality, ['ENABLED', 'DISABLED', 'FAST', 'ACCURATE', 'OFF'], 'citation_quality');
  if (given(body.safety_mode)) expectEnum(body.safety_mode, ['CONTEXTUAL', 'STRICT', 'NONE'], 'safety_mode');
  if (given(body.stop_sequences)) {
    expectLength(expectArray(body.stop_sequences, 'stop_sequences'), 'stop_sequences', STOP_SEQUENCES).forEach((s, i) =>
      expectString(s, `stop_sequences.${i}`),
    );
  }
  if (given(body.connectors)) {
    expectArray(body.connectors, 'connectors').forEach((raw, i) => {
      const connector = expectObject(raw, `connectors.${i}`);
      expectString(requiredMember(connector, 'id', `connectors.${i}`), `connectors.${i}.id`);
    });
  }
  if (given(body.documents)) expectArray(body.documents, 'documents').forEach((d, i) => expectObject(d, `documents.${i}`));
}

/** `response_format`: `{type:"text"}`, or `{type:"json_object", schema?}`. */
function decodeResponseFormat(raw: unknown, documents: boolean): OutputFormat {
  if (!given(raw)) return { type: 'text' };
  const format = expectObject(raw, 'response_format');
  const type = expectEnum(requiredMember(format, 'type', 'response_format'), ['text', 'json_object'], 'response_format.type');
  if (type === 'text') return { type: 'text' };
  // Cohere's own sentence (v2's): JSON output and documents do not go together.
  if (documents) fail('response_format', 'response_format is not supported with RAG.');
  if (!given(format.schema)) return { type: 'json_object' };
  const schema = expectObject(format.schema, 'response_format.schema');
  usableSchema(schema, 'response_format.schema');
  return { type: 'json_schema', schema, strict: true };
}

function decodeRequest(body: unknown, delivered: DeliveredCallIds | undefined): ChatRequest {
  if (!isObject(body)) fail('', 'the request body must be a JSON object');
  for (const key in body) if (!REQUEST_FIELDS.has(key)) fail(key, `unknown field: parameter ${key} is not a valid field`);
  const model = given(body.model) ? expectString(body.model, 'model') : DEFAULT_MODEL;
  const messages = decodeConversation(body, delivered);
  const tools = decodeTools(body.tools);
  checkOptions(body);
  const output = decodeResponseFormat(body.response_format, given(body.documents));
  const maxOutputTokens = given(body.max_tokens) ? expectInteger(body.max_tokens, 'max_tokens', POSITIVE) : undefined;
  const stream = given(body.stream) ? expectBoolean(body.stream, 'stream') : false;
  return {
    model,
    messages,
    tools,
    toolChoice: { type: 'auto' },
    parallelToolCalls: true,
    output,
    stream,
    // stream-end always carries the response with its token counts.
    streamUsage: stream,
    ...(maxOutputTokens !== undefined && { maxOutputTokens }),
    // Cohere reports cached tokens without being asked (meta.cached_tokens).
    promptCaching: 'automatic',
  };
}
