// Checks a Responses body the way OpenAI does (its messages, params and codes where we know them)
// and decodes it into the neutral ChatRequest: stored history first (`previous_response_id`), then
// `instructions` as a system message, then the input items. Order of refusals: malformed fields
// (400), unknown stored ids (404), a full store (409) — all before anything is selected.

import { MAX_DECLARED_SCHEMAS } from '../../core/schema.js';
import type { IncomingHttpHeaders } from 'node:http';
import { invalidRequest, type NeutralError } from '../../core/errors.js';
import type { ChatRequest, Message, OutputFormat, Part, ToolChoice, ToolDefinition } from '../../core/model.js';
import type { WireContext } from '../dialect.js';
import { decodeInput } from './decode-input.js';
import { attachInfo, type ResponseEcho } from './request-info.js';
import { ResponseStore, STORE_NAME, type StoredResponse } from './response-store.js';
import { given, isObject } from '../wire-kit/values.js';
import { refusalOr, reject } from '../wire-kit/wire-error.js';
import {
  expectArray,
  expectBoolean,
  expectEnum,
  expectName,
  expectNewToolName,
  expectObject,
  expectString,
  fail,
  required,
} from '../openai/checks.js';
import {
  DECODED,
  arrayOf,
  boolean,
  checkFields,
  integer,
  metadata as metadataRule,
  moderation,
  number,
  object,
  oneOf,
  string,
  type FieldRule,
} from '../openai/field-rules.js';
import { expectSchema } from '../openai/schema-checks.js';
import { listValues, typeName } from '../openai/wording.js';

/** Chat Completions parameters sent to the Responses API, and where the Responses API has them. */
const CHAT_PARAMETERS: Record<string, string> = {
  messages: "In the Responses API, send the conversation as 'input'.",
  response_format: "In the Responses API, this parameter has moved to 'text.format'.",
  max_tokens: "In the Responses API, use 'max_output_tokens'.",
  max_completion_tokens: "In the Responses API, use 'max_output_tokens'.",
  functions: "Declare 'tools' with type 'function' (name and parameters at the top level of each tool).",
  function_call: "Use 'tool_choice'.",
  reasoning_effort: "In the Responses API, this parameter has moved to 'reasoning.effort'.",
  verbosity: "In the Responses API, this parameter has moved to 'text.verbosity'.",
  n: 'The Responses API answers with one response.',
  stop: 'The Responses API has no stop sequences.',
  seed: '',
  logit_bias: '',
  logprobs: "Ask for 'message.output_text.logprobs' in 'include'.",
  frequency_penalty: '',
  presence_penalty: '',
  modalities: '',
  audio: '',
  prediction: '',
  web_search_options: '',
};

/**
 * Every top-level field of `POST /v1/responses` (OpenAI's OpenAPI document, CreateResponse), with
 * its type and range. DECODED fields are checked where the decoder reads them (the Chat Completions
 * names are refused with a hint before this table is read); a field not listed is refused as the
 * API refuses it.
 */
const RESPONSES_FIELDS: Readonly<Record<string, FieldRule>> = {
  ...Object.fromEntries(Object.keys(CHAT_PARAMETERS).map((key) => [key, DECODED])),
  model: DECODED,
  input: DECODED,
  instructions: DECODED,
  previous_response_id: DECODED,
  store: DECODED,
  stream: DECODED,
  stream_options: DECODED,
  tools: DECODED,
  tool_choice: DECODED,
  text: DECODED,
  reasoning: DECODED,
  metadata: DECODED,
  background: DECODED,
  conversation: DECODED,
  prompt: DECODED,
  max_output_tokens: integer(16),
  temperature: number(0, 2),
  top_p: number(0, 1),
  top_logprobs: integer(0, 20),
  max_tool_calls: integer(1),
  parallel_tool_calls: boolean,
  truncation: oneOf('auto', 'disabled'),
  service_tier: oneOf('auto', 'default', 'flex', 'scale', 'priority', 'fast', 'ultrafast'),
  user: string(),
  prompt_cache_key: string(),
  safety_identifier: string(64),
  prompt_cache_retention: oneOf('in_memory', '24h'),
  prompt_cache_options: object({ ttl: oneOf('30m'), mode: oneOf('implicit', 'explicit') }),
  include: arrayOf(
    oneOf(
      'file_search_call.results',
      'web_search_call.results',
      'web_search_call.action.sources',
      'message.input_image.image_url',
      'computer_call_output.output.image_url',
      'code_interpreter_call.outputs',
      'reasoning.encrypted_content',
      'message.output_text.logprobs',
    ),
    { wording: 'an array of strings' },
  ),
  moderation,
  context_management: arrayOf(object({ type: string(), compact_threshold: integer(1000) }, ['type']), {
    min: 1,
    wording: 'an array of objects',
  }),
};

function unknownParameter(key: string): never {
  fail(`Unknown parameter: '${key}'.`, key, 'unknown_parameter');
}

/** Tool types the real API hosts itself (or runs as free-form custom tools); Understudy runs none. */
const HOSTED_TOOLS = [
  'file_search',
  'web_search',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'web_search_2025_08_26',
  'computer_use_preview',
  'computer_use',
  'computer',
  'code_interpreter',
  'image_generation',
  'mcp',
  'local_shell',
  'shell',
  'custom',
  'apply_patch',
  'tool_search',
  'programmatic_tool_calling',
  'namespace',
];

/** A function tool's `allowed_callers` (CallableToolAllowedCaller). */
const ALLOWED_CALLERS = arrayOf(oneOf('direct', 'programmatic'), { wording: 'an array of strings' });

function credentialOf(headers: IncomingHttpHeaders): string {
  const auth = headers.authorization;
  if (auth) return auth.startsWith('Bearer ') ? auth.slice(7).trim() : auth;
  const key = headers['api-key'] ?? headers['x-api-key'];
  return typeof key === 'string' ? key : '';
}

function notFound(message: string, param: string, code: string | null): NeutralError {
  return { kind: 'not_found', status: 404, code, message, param };
}

const SCOPE = 'stored responses are scoped by session, model and credential';

/** Where a stored response or item is not visible to this request: a sentence, or null when it is. */
function outOfScope(found: StoredResponse, model: string, credential: string): string | null {
  if (found.credential !== credential) return `Understudy stored it under a different API key; ${SCOPE}.`;
  if (found.model !== model) return `Understudy stored it for model '${found.model}' and this request names '${model}'; ${SCOPE}.`;
  return null;
}

function findPrevious(store: ResponseStore, id: string, model: string, credential: string, sessionId: string): StoredResponse {
  const found = store.get(id);
  const base = `Previous response with id '${id}' not found.`;
  if (!found) {
    const why = store.wasUnstored(id)
      ? `It was created with 'store': false, so it was not stored and cannot be continued.`
      : `Understudy keeps stored responses per session; session '${sessionId}' holds ${store.size}.`;
    reject(notFound(`${base} ${why}`, 'previous_response_id', 'previous_response_not_found'));
  }
  const why = outOfScope(found, model, credential);
  if (why !== null) reject(notFound(`${base} ${why}`, 'previous_response_id', 'previous_response_not_found'));
  return found;
}

function rejectChatParameters(body: Record<string, unknown>): void {
  for (const key in CHAT_PARAMETERS) {
    if (body[key] === undefined) continue;
    const hint = CHAT_PARAMETERS[key];
    fail(`Unsupported parameter: '${key}'.${hint ? ` ${hint}` : ''}`, key, 'unsupported_parameter');
  }
}

function rejectUnsupportedFeatures(body: Record<string, unknown>): void {
  if (given(body.background)) {
    expectBoolean(body.background, 'background');
    if (body.background === true) {
      fail(
        `Understudy does not run background responses: answers are scripted and immediate. Remove 'background' or set it to false.`,
        'background',
        'unsupported_value',
      );
    }
  }
  if (given(body.conversation)) {
    fail(
      `Understudy does not keep Conversations objects; continue with 'previous_response_id' or send the history in 'input'.`,
      'conversation',
      'unsupported_parameter',
    );
  }
  if (given(body.prompt)) {
    fail(`Understudy does not hold prompt templates; send 'instructions' and 'input' instead.`, 'prompt', 'unsupported_parameter');
  }
}

function decodeTools(raw: unknown): { tools: ToolDefinition[]; echo: unknown[] } {
  if (!given(raw)) return { tools: [], echo: [] };
  expectArray(raw, 'tools', 'an array of objects');
  if ((raw as unknown[]).length > MAX_DECLARED_SCHEMAS) {
    fail(
      `Invalid 'tools': Understudy checks the schemas of at most ${MAX_DECLARED_SCHEMAS} tools per request; this request declares ${(raw as unknown[]).length}.`,
      'tools',
      'array_above_max_length',
    );
  }
  const tools: ToolDefinition[] = [];
  const echo: unknown[] = [];
  const names = new Set<string>();
  (raw as unknown[]).forEach((rawTool, i) => {
    const p = `tools[${i}]`;
    expectObject(rawTool, p);
    const tool = rawTool as Record<string, unknown>;
    required(tool.type, `${p}.type`);
    expectString(tool.type, `${p}.type`);
    if (tool.type !== 'function') {
      if (tool.type === 'namespace') {
        fail(
          `Understudy does not support 'namespace' tools: declare their function tools directly in 'tools'.`,
          `${p}.type`,
          'unsupported_value',
        );
      }
      if (HOSTED_TOOLS.includes(tool.type as string)) {
        fail(
          `Understudy does not support '${String(tool.type)}' tools: only function tools can be scripted (a server-side tool's results could only be invented). Declare a function tool and script its calls.`,
          `${p}.type`,
          'unsupported_value',
        );
      }
      fail(
        `Invalid value: '${String(tool.type)}'. Supported values are: ${listValues(['function', ...HOSTED_TOOLS])}.`,
        `${p}.type`,
        'invalid_value',
      );
    }
    required(tool.name, `${p}.name`);
    const name = expectName(tool.name, `${p}.name`);
    expectNewToolName(names, name, `${p}.name`);
    if (given(tool.description)) expectString(tool.description, `${p}.description`);
    required(tool.parameters, `${p}.parameters`);
    if (given(tool.strict)) expectBoolean(tool.strict, `${p}.strict`);
    if (given(tool.defer_loading)) expectBoolean(tool.defer_loading, `${p}.defer_loading`);
    if (given(tool.output_schema)) expectObject(tool.output_schema, `${p}.output_schema`);
    if (given(tool.allowed_callers)) ALLOWED_CALLERS(tool.allowed_callers, `${p}.allowed_callers`);
    if (tool.parameters !== null) {
      expectObject(tool.parameters, `${p}.parameters`);
      const schema = tool.parameters as Record<string, unknown>;
      expectSchema(schema, `${p}.parameters`, `function '${name}'`, 'invalid_function_parameters', tool.strict === true);
    }
    const parameters = (tool.parameters as Record<string, unknown> | null) ?? {};
    const strict = given(tool.strict) ? (tool.strict as boolean) : true;
    tools.push({
      name,
      ...(given(tool.description) && { description: tool.description as string }),
      parameters,
      strict,
    });
    echo.push({
      type: 'function',
      name,
      description: (tool.description as string | undefined) ?? null,
      parameters: tool.parameters,
      strict,
    });
  });
  return { tools, echo };
}

function decodeToolChoice(raw: unknown, tools: ToolDefinition[]): ToolChoice {
  if (!given(raw)) return { type: 'auto' };
  if (typeof raw === 'string') {
    expectEnum(raw, ['none', 'auto', 'required'], 'tool_choice');
    if (raw === 'required' && tools.length === 0) {
      fail(`Tool choice 'required' must be specified with 'tools' parameter.`, 'tool_choice', 'invalid_value');
    }
    return { type: raw as 'none' | 'auto' | 'required' };
  }
  expectObject(raw, 'tool_choice', 'one of a string or an object');
  const choice = raw as Record<string, unknown>;
  required(choice.type, 'tool_choice.type');
  expectString(choice.type, 'tool_choice.type');
  if (choice.type !== 'function') {
    if (choice.type === 'allowed_tools' || HOSTED_TOOLS.includes(choice.type as string)) {
      fail(
        `Understudy supports 'tool_choice' as 'none', 'auto', 'required' or a function ({"type":"function","name":…}); '${String(choice.type)}' is not supported.`,
        'tool_choice.type',
        'unsupported_value',
      );
    }
    fail(
      `Invalid value: '${String(choice.type)}'. Supported values are: 'function', 'allowed_tools', 'file_search', 'web_search_preview', 'computer_use_preview', 'image_generation', 'code_interpreter', 'mcp', and 'custom'.`,
      'tool_choice.type',
      'invalid_value',
    );
  }
  required(choice.name, 'tool_choice.name');
  expectString(choice.name, 'tool_choice.name');
  const name = choice.name as string;
  if (!tools.some((t) => t.name === name)) {
    fail(
      `Tool choice 'function' with name '${name}' is not among the declared tools${tools.length ? ` (${tools.map((t) => t.name).join(', ')})` : ''}.`,
      'tool_choice',
      'invalid_value',
    );
  }
  return { type: 'named', name };
}

function decodeTextFormat(raw: unknown): { output: OutputFormat; echo: Record<string, unknown> } {
  let verbosity = 'medium';
  if (!given(raw)) return { output: { type: 'text' }, echo: { format: { type: 'text' }, verbosity } };
  expectObject(raw, 'text');
  const text = raw as Record<string, unknown>;
  if (given(text.verbosity)) {
    expectEnum(text.verbosity, ['low', 'medium', 'high'], 'text.verbosity');
    verbosity = text.verbosity as string;
  }
  if (!given(text.format)) return { output: { type: 'text' }, echo: { format: { type: 'text' }, verbosity } };
  expectObject(text.format, 'text.format');
  const format = text.format as Record<string, unknown>;
  required(format.type, 'text.format.type');
  expectEnum(format.type, ['text', 'json_schema', 'json_object'], 'text.format.type');
  const echo = { format, verbosity };
  if (format.type === 'text') return { output: { type: 'text' }, echo };
  if (format.type === 'json_object') return { output: { type: 'json_object' }, echo };
  if (format.json_schema !== undefined && format.name === undefined) {
    fail(
      `Missing required parameter: 'text.format.name'. In the Responses API, 'name', 'schema' and 'strict' sit directly in 'text.format', not under 'json_schema'.`,
      'text.format.name',
      'missing_required_parameter',
    );
  }
  required(format.name, 'text.format.name');
  const name = expectName(format.name, 'text.format.name');
  required(format.schema, 'text.format.schema');
  expectObject(format.schema, 'text.format.schema');
  if (given(format.strict)) expectBoolean(format.strict, 'text.format.strict');
  if (given(format.description)) expectString(format.description, 'text.format.description');
  expectSchema(
    format.schema as Record<string, unknown>,
    'text.format.schema',
    `response_format '${name}'`,
    'invalid_json_schema',
    format.strict === true,
  );
  return {
    output: {
      type: 'json_schema',
      name,
      schema: format.schema as Record<string, unknown>,
      ...(given(format.strict) && { strict: format.strict as boolean }),
    },
    echo,
  };
}

function decodeReasoning(raw: unknown): { effort: string | null; summary: string | null } {
  if (!given(raw)) return { effort: null, summary: null };
  expectObject(raw, 'reasoning');
  const reasoning = raw as Record<string, unknown>;
  if (given(reasoning.effort))
    expectEnum(reasoning.effort, ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'], 'reasoning.effort');
  if (given(reasoning.summary)) expectEnum(reasoning.summary, ['auto', 'concise', 'detailed'], 'reasoning.summary');
  if (given(reasoning.generate_summary))
    expectEnum(reasoning.generate_summary, ['auto', 'concise', 'detailed'], 'reasoning.generate_summary');
  if (given(reasoning.context)) expectEnum(reasoning.context, ['auto', 'current_turn', 'all_turns'], 'reasoning.context');
  if (given(reasoning.mode)) expectString(reasoning.mode, 'reasoning.mode');
  return { effort: (reasoning.effort as string | undefined) ?? null, summary: (reasoning.summary as string | undefined) ?? null };
}

function decodeMetadata(raw: unknown): Record<string, unknown> {
  if (!given(raw)) return {};
  metadataRule(raw, 'metadata');
  return raw as Record<string, unknown>;
}

/** Fills in each tool result's name from its call, and checks calls and outputs pair up. */
function pairToolCalls(messages: Message[]): void {
  const names = new Map<string, string>();
  const unanswered = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool_call') {
        names.set(part.id, part.name);
        unanswered.add(part.id);
      } else if (part.type === 'tool_result') {
        const name = names.get(part.callId);
        if (name === undefined) fail(`No tool call found for function call output with call_id ${part.callId}.`, 'input');
        if (part.name === undefined) part.name = name;
        unanswered.delete(part.callId);
      }
    }
  }
  const first = unanswered.values().next();
  if (!first.done) fail(`No tool output found for function call ${first.value}.`, 'input');
}

function mentionsJson(messages: Message[]): boolean {
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'text' && /json/i.test(part.text)) return true;
  }
  return false;
}

function decodeBody(body: Record<string, unknown>, wire: WireContext): ChatRequest {
  if (!given(body.model) || body.model === '') fail(`Missing required parameter: 'model'.`, 'model', 'missing_required_parameter');
  expectString(body.model, 'model');
  const model = body.model as string;
  rejectChatParameters(body);
  rejectUnsupportedFeatures(body);
  checkFields(body, RESPONSES_FIELDS, unknownParameter);
  if (!given(body.input)) fail(`Missing required parameter: 'input'.`, 'input', 'missing_required_parameter');

  let stream = false;
  if (given(body.stream)) {
    expectBoolean(body.stream, 'stream');
    stream = body.stream as boolean;
  }
  if (given(body.stream_options)) {
    if (!stream) fail(`The 'stream_options' parameter is only allowed when 'stream' is enabled.`, 'stream_options', 'invalid_value');
    expectObject(body.stream_options, 'stream_options');
    const obfuscation = (body.stream_options as Record<string, unknown>).include_obfuscation;
    if (given(obfuscation)) expectBoolean(obfuscation, 'stream_options.include_obfuscation');
  }
  let store = true;
  if (given(body.store)) {
    expectBoolean(body.store, 'store');
    store = body.store as boolean;
  }
  let previousId: string | null = null;
  if (given(body.previous_response_id)) {
    expectString(body.previous_response_id, 'previous_response_id');
    previousId = body.previous_response_id as string;
    if (!previousId.startsWith('resp')) {
      fail(
        `Invalid 'previous_response_id': '${previousId}'. Expected an ID that begins with 'resp'.`,
        'previous_response_id',
        'invalid_value',
      );
    }
  }
  let instructions: string | null = null;
  if (given(body.instructions)) {
    expectString(body.instructions, 'instructions');
    instructions = body.instructions as string;
  }
  let maxOutputTokens: number | undefined;
  if (given(body.max_output_tokens)) maxOutputTokens = body.max_output_tokens as number;
  const metadata = decodeMetadata(body.metadata);
  const reasoning = decodeReasoning(body.reasoning);
  const { tools, echo: toolsEcho } = decodeTools(body.tools);
  const toolChoice = decodeToolChoice(body.tool_choice, tools);
  const text = decodeTextFormat(body.text);

  // What the session has stored: the previous response's conversation, and items by id.
  const responses = wire.state.store(STORE_NAME, () => new ResponseStore());
  const credential = credentialOf(wire.headers);
  const history =
    previousId === null ? [] : responses.history(findPrevious(responses, previousId, model, credential, wire.state.sessionId));
  const input = decodeInput(body.input, {
    item(id: string, param: string): Part[] {
      const found = responses.item(id);
      const why = found
        ? outOfScope(found.response, model, credential)
        : `No stored response of session '${wire.state.sessionId}' has an output item with this id.`;
      if (!found || why !== null) reject(notFound(`Item with id '${id}' not found. ${why}`, param, null));
      return found.parts;
    },
  });
  if (Array.isArray(body.input) && body.input.length === 0 && previousId === null) {
    fail(`Invalid 'input': empty array. Expected an array with minimum length 1, but got an empty array instead.`, 'input', 'empty_array');
  }

  const messages: Message[] = instructions === null ? [] : [{ role: 'system', parts: [{ type: 'text', text: instructions }] }];
  for (const message of history) messages.push(message);
  for (const message of input) messages.push(message);
  pairToolCalls(messages);
  if (text.output.type === 'json_object' && !mentionsJson(messages)) {
    fail(`Response input messages must contain the word 'json' in some form to use 'text.format' of type 'json_object'.`, 'input');
  }

  if (store) {
    const full = responses.fullReason();
    if (full !== null) {
      reject({
        kind: 'invalid_request',
        status: 409,
        code: 'response_store_full',
        type: 'understudy_error',
        param: 'store',
        headers: { 'x-should-retry': 'false' },
        message: `Understudy cannot store this response: the response store of session '${wire.state.sessionId}' is full (${full}). Send 'store': false for responses you will not continue, or reset the session to clear the store.`,
      });
    }
  }

  const echo: ResponseEcho = {
    instructions,
    max_output_tokens: maxOutputTokens ?? null,
    parallel_tool_calls: body.parallel_tool_calls !== false,
    previous_response_id: previousId,
    reasoning,
    store,
    temperature: (body.temperature as number | undefined) ?? 1,
    text: text.echo,
    tool_choice: given(body.tool_choice) ? body.tool_choice : 'auto',
    tools: toolsEcho,
    top_p: (body.top_p as number | undefined) ?? 1,
    truncation: (body.truncation as string | undefined) ?? 'disabled',
    user: (body.user as string | undefined) ?? null,
    metadata,
    service_tier: given(body.service_tier) && body.service_tier !== 'auto' ? (body.service_tier as string) : 'default',
  };
  const request: ChatRequest = {
    model,
    messages,
    tools,
    toolChoice,
    parallelToolCalls: body.parallel_tool_calls !== false,
    output: text.output,
    stream,
    streamUsage: stream,
    maxOutputTokens,
  };
  attachInfo(request, { echo, store, previousResponseId: previousId, credential, input });
  return request;
}

export function decodeResponsesRequest(body: unknown, wire: WireContext): ChatRequest | NeutralError {
  if (!isObject(body)) {
    return invalidRequest(`Invalid type for body: expected an object, but got ${typeName(body)} instead.`, null, 'invalid_type');
  }
  return refusalOr(() => decodeBody(body, wire));
}
