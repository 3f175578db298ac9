// Checks a Chat Completions body the way OpenAI does (same messages, params and codes where we
// know them) and decodes it into the neutral ChatRequest.

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import type { ChatRequest, JsonValue, Message, OutputFormat, Part, Role, ToolChoice, ToolDefinition } from '../../core/model.js';
import { given, isObject } from '../wire-kit/values.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import {
  expectArray,
  expectBoolean,
  expectEnum,
  expectInteger,
  expectName,
  expectNewToolName,
  expectObject,
  expectString,
  expectUrl,
  fail,
  required,
} from '../openai/checks.js';
import {
  DECODED,
  arrayOf,
  boolean,
  checkFields,
  closedObject,
  integer,
  logitBias,
  metadata,
  moderation,
  number,
  object,
  oneOf,
  promptCacheBreakpoint,
  string,
  stringOr,
  type FieldRule,
} from '../openai/field-rules.js';
import { CHAT_MAX_TOOLS, expectSchema } from '../openai/schema-checks.js';
import { typeName } from '../openai/wording.js';
import type { WireContext } from '../dialect.js';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const textPart = object({ type: oneOf('text'), text: string(), prompt_cache_breakpoint: promptCacheBreakpoint }, ['type', 'text']);

/**
 * Every top-level field of `POST /v1/chat/completions` (OpenAI's OpenAPI document,
 * CreateChatCompletionRequest), with its type and range. DECODED fields are checked where the
 * decoder reads them; a field not listed is refused as the API refuses it.
 */
/** Chat Completions' request members and their checks; a host of the dialect may add its own. */
export const CHAT_FIELDS: Readonly<Record<string, FieldRule>> = {
  model: DECODED,
  messages: DECODED,
  tools: DECODED,
  tool_choice: DECODED,
  parallel_tool_calls: DECODED,
  response_format: DECODED,
  stream: DECODED,
  stream_options: DECODED,
  n: DECODED,
  max_tokens: DECODED,
  max_completion_tokens: DECODED,
  functions: DECODED,
  function_call: DECODED,
  temperature: number(0, 2),
  top_p: number(0, 1),
  frequency_penalty: number(-2, 2),
  presence_penalty: number(-2, 2),
  seed: integer(),
  logprobs: boolean,
  top_logprobs: integer(0, 20),
  logit_bias: logitBias,
  stop: stringOr(
    arrayOf(string(), { min: 1, max: 4, wording: 'one of a string or array of strings' }),
    'one of a string or array of strings',
  ),
  user: string(),
  safety_identifier: string(64),
  prompt_cache_key: string(),
  prompt_cache_retention: oneOf('in_memory', '24h'),
  prompt_cache_options: object({ ttl: oneOf('30m'), mode: oneOf('implicit', 'explicit') }),
  metadata,
  service_tier: oneOf('auto', 'default', 'flex', 'scale', 'priority', 'fast'),
  modalities: arrayOf(oneOf('text', 'audio'), { wording: 'an array of strings' }),
  verbosity: oneOf('low', 'medium', 'high'),
  reasoning_effort: oneOf('none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'),
  store: boolean,
  audio: object(
    {
      voice: stringOr(closedObject({ id: string() }, ['id']), 'one of a string or an object'),
      format: oneOf('wav', 'aac', 'mp3', 'flac', 'opus', 'pcm16'),
    },
    ['voice', 'format'],
  ),
  prediction: object(
    {
      type: oneOf('content'),
      content: stringOr(
        arrayOf(textPart, { min: 1, wording: 'one of a string or array of objects' }),
        'one of a string or array of objects',
      ),
    },
    ['type', 'content'],
  ),
  web_search_options: object({
    search_context_size: oneOf('low', 'medium', 'high'),
    user_location: object(
      {
        type: oneOf('approximate'),
        approximate: object({ country: string(), region: string(), city: string(), timezone: string() }),
      },
      ['type', 'approximate'],
    ),
  }),
  moderation,
};

function unrecognized(key: string): never {
  fail(`Unrecognized request argument supplied: ${key}`, null);
}

const AUDIO_PART = object({ input_audio: object({ data: string(), format: oneOf('wav', 'mp3') }, ['data', 'format']) }, ['input_audio']);
const FILE_PART = object({ file: object({ filename: string(), file_data: string(), file_id: string() }) }, ['file']);

function decodeContent(content: unknown, param: string, role: string): Part[] {
  if (typeof content === 'string') return content.length ? [{ type: 'text', text: content }] : [];
  expectArray(content, param, 'one of a string or array of objects');
  if ((content as unknown[]).length === 0) {
    fail(`Invalid '${param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`, param, 'empty_array');
  }
  const parts: Part[] = [];
  (content as unknown[]).forEach((raw, i) => {
    const p = `${param}[${i}]`;
    expectObject(raw, p);
    const part = raw as Record<string, unknown>;
    if (part.type === undefined) fail(`Missing required parameter: '${p}.type'.`, `${p}.type`, 'missing_required_parameter');
    if (given(part.prompt_cache_breakpoint) && part.type !== 'refusal')
      promptCacheBreakpoint(part.prompt_cache_breakpoint, `${p}.prompt_cache_breakpoint`);
    switch (part.type) {
      case 'text':
        if (part.text === undefined) fail(`Missing required parameter: '${p}.text'.`, `${p}.text`, 'missing_required_parameter');
        expectString(part.text, `${p}.text`);
        parts.push({ type: 'text', text: part.text as string });
        break;
      case 'refusal':
        if (role !== 'assistant')
          fail(
            `Invalid value: 'refusal'. Supported values are: 'text', 'image_url', 'input_audio', and 'file'.`,
            `${p}.type`,
            'invalid_value',
          );
        expectString(part.refusal, `${p}.refusal`);
        parts.push({ type: 'text', text: part.refusal as string });
        break;
      case 'image_url': {
        if (role !== 'user') fail(`Invalid value: 'image_url'. Supported values are: 'text'.`, `${p}.type`, 'invalid_value');
        expectObject(part.image_url, `${p}.image_url`);
        const image = part.image_url as Record<string, unknown>;
        required(image.url, `${p}.image_url.url`);
        expectUrl(image.url, `${p}.image_url.url`);
        if (given(image.detail)) expectEnum(image.detail, ['auto', 'low', 'high'], `${p}.image_url.detail`);
        parts.push({ type: 'image', url: image.url as string });
        break;
      }
      case 'input_audio':
      case 'file':
        if (role !== 'user') fail(`Invalid value: '${String(part.type)}'. Supported values are: 'text'.`, `${p}.type`, 'invalid_value');
        (part.type === 'file' ? FILE_PART : AUDIO_PART)(part, p);
        break;
      default:
        fail(
          `Invalid value: '${String(part.type)}'. Supported values are: ${role === 'user' ? "'text', 'image_url', 'input_audio', and 'file'" : role === 'assistant' ? "'text' and 'refusal'" : "'text'"}.`,
          `${p}.type`,
          'invalid_value',
        );
    }
  });
  return parts;
}

const ASSISTANT_AUDIO = object({ id: string() }, ['id']);

function decodeMessages(raw: unknown): Message[] {
  if (raw === undefined) fail(`Missing required parameter: 'messages'.`, 'messages', 'missing_required_parameter');
  expectArray(raw, 'messages', 'an array of objects');
  const list = raw as unknown[];
  if (list.length === 0) {
    fail(
      `Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
      'messages',
      'empty_array',
    );
  }
  const messages: Message[] = [];
  const callNames = new Map<string, string>();
  let pendingCalls: { index: number; ids: Set<string> } | undefined;

  list.forEach((rawMessage, i) => {
    const p = `messages[${i}]`;
    expectObject(rawMessage, p);
    const m = rawMessage as Record<string, unknown>;
    if (m.role === undefined) fail(`Missing required parameter: '${p}.role'.`, `${p}.role`, 'missing_required_parameter');
    if (typeof m.role !== 'string' || !ROLES.has(m.role)) {
      fail(
        `Invalid value: '${String(m.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `${p}.role`,
        'invalid_value',
      );
    }
    if (m.role === 'function') {
      fail(
        `Understudy does not accept the deprecated 'function' role; send tool results as role 'tool' with a 'tool_call_id'.`,
        `${p}.role`,
        'invalid_value',
      );
    }
    const role = m.role as Role;
    if (given(m.name) && role !== 'tool') expectString(m.name, `${p}.name`);

    if (pendingCalls && role !== 'tool') {
      fail(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pendingCalls.ids].join(', ')}`,
        `messages.[${pendingCalls.index}].role`,
      );
    }

    const parts: Part[] = [];
    if (role === 'assistant') {
      // A loop, not push(...): a spread of hundreds of thousands of parts overflows the stack.
      if (m.content !== undefined && m.content !== null)
        for (const part of decodeContent(m.content, `${p}.content`, role)) parts.push(part);
      if (given(m.refusal)) expectString(m.refusal, `${p}.refusal`);
      if (given(m.audio)) ASSISTANT_AUDIO(m.audio, `${p}.audio`);
      if (m.function_call !== undefined && m.function_call !== null) {
        fail(
          `Understudy does not accept the deprecated 'function_call' on messages; use 'tool_calls'.`,
          `${p}.function_call`,
          'invalid_value',
        );
      }
      if (m.tool_calls !== undefined && m.tool_calls !== null) {
        expectArray(m.tool_calls, `${p}.tool_calls`, 'an array of objects');
        const ids = new Set<string>();
        (m.tool_calls as unknown[]).forEach((rawCall, j) => {
          const cp = `${p}.tool_calls[${j}]`;
          expectObject(rawCall, cp);
          const call = rawCall as Record<string, unknown>;
          if (call.id === undefined) fail(`Missing required parameter: '${cp}.id'.`, `${cp}.id`, 'missing_required_parameter');
          expectString(call.id, `${cp}.id`);
          if (call.type === 'custom') {
            fail(
              `Understudy supports tool calls of type 'function' only: a custom tool call answers no declared function schema.`,
              `${cp}.type`,
              'unsupported_value',
            );
          }
          if (call.type !== 'function')
            fail(`Invalid value: '${String(call.type)}'. Supported values are: 'function' and 'custom'.`, `${cp}.type`, 'invalid_value');
          expectObject(call.function, `${cp}.function`);
          const fn = call.function as Record<string, unknown>;
          required(fn.name, `${cp}.function.name`);
          expectString(fn.name, `${cp}.function.name`);
          required(fn.arguments, `${cp}.function.arguments`);
          expectString(fn.arguments, `${cp}.function.arguments`);
          let parsed: JsonValue | undefined;
          try {
            parsed = JSON.parse(fn.arguments as string) as JsonValue;
          } catch {
            parsed = undefined;
          }
          ids.add(call.id as string);
          callNames.set(call.id as string, fn.name as string);
          parts.push({
            type: 'tool_call',
            id: call.id as string,
            name: fn.name as string,
            argumentsText: fn.arguments as string,
            arguments: parsed,
          });
        });
        if (ids.size > 0) pendingCalls = { index: i, ids };
      } else if (m.content === undefined || m.content === null) {
        fail(
          `Invalid value for '${p}.content': expected a string or array of objects when 'tool_calls' is absent.`,
          `${p}.content`,
          'invalid_value',
        );
      }
    } else if (role === 'tool') {
      if (m.tool_call_id === undefined)
        fail(`Missing required parameter: '${p}.tool_call_id'.`, `${p}.tool_call_id`, 'missing_required_parameter');
      expectString(m.tool_call_id, `${p}.tool_call_id`);
      if (m.content === undefined) fail(`Missing required parameter: '${p}.content'.`, `${p}.content`, 'missing_required_parameter');
      const id = m.tool_call_id as string;
      if (!pendingCalls || !pendingCalls.ids.has(id)) {
        fail(
          `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`,
          `messages.[${i}].role`,
        );
      }
      pendingCalls.ids.delete(id);
      if (pendingCalls.ids.size === 0) pendingCalls = undefined;
      const content = decodeContent(m.content, `${p}.content`, role)
        .map((x) => (x.type === 'text' ? x.text : ''))
        .join('');
      parts.push({ type: 'tool_result', callId: id, name: callNames.get(id), content, isError: false });
    } else {
      if (m.content === undefined || m.content === null)
        fail(`Missing required parameter: '${p}.content'.`, `${p}.content`, 'missing_required_parameter');
      for (const part of decodeContent(m.content, `${p}.content`, role)) parts.push(part);
    }
    messages.push({ role, parts });
  });
  if (pendingCalls) {
    fail(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pendingCalls.ids].join(', ')}`,
      `messages.[${pendingCalls.index}].role`,
    );
  }
  return messages;
}

function decodeTools(raw: unknown): ToolDefinition[] {
  if (raw === undefined || raw === null) return [];
  expectArray(raw, 'tools', 'an array of objects');
  const count = (raw as unknown[]).length;
  if (count > CHAT_MAX_TOOLS) {
    fail(
      `Invalid 'tools': array too long. Expected an array with maximum length ${CHAT_MAX_TOOLS}, but got an array with length ${count} instead.`,
      'tools',
      'array_above_max_length',
    );
  }
  const names = new Set<string>();
  return (raw as unknown[]).map((rawTool, i) => {
    const p = `tools[${i}]`;
    expectObject(rawTool, p);
    const tool = rawTool as Record<string, unknown>;
    if (tool.type === undefined) fail(`Missing required parameter: '${p}.type'.`, `${p}.type`, 'missing_required_parameter');
    if (tool.type === 'custom') {
      fail(
        `Understudy supports function tools only: a 'custom' tool's free-form input has no schema to check a scripted call against. Declare a function tool and script its calls.`,
        `${p}.type`,
        'unsupported_value',
      );
    }
    if (tool.type !== 'function') {
      fail(
        `Invalid value: '${String(tool.type)}'. Supported values are: 'function' and 'custom'. Understudy rejects server-hosted tool types on Chat Completions; declare function tools.`,
        `${p}.type`,
        'invalid_value',
      );
    }
    if (tool.function === undefined) fail(`Missing required parameter: '${p}.function'.`, `${p}.function`, 'missing_required_parameter');
    expectObject(tool.function, `${p}.function`);
    const fn = tool.function as Record<string, unknown>;
    if (fn.name === undefined)
      fail(`Missing required parameter: '${p}.function.name'.`, `${p}.function.name`, 'missing_required_parameter');
    expectString(fn.name, `${p}.function.name`);
    if (!TOOL_NAME.test(fn.name as string)) {
      fail(
        `Invalid '${p}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.`,
        `${p}.function.name`,
        'invalid_value',
      );
    }
    expectNewToolName(names, fn.name as string, `${p}.function.name`);
    if (fn.description !== undefined) expectString(fn.description, `${p}.function.description`);
    if (fn.strict !== undefined && fn.strict !== null) expectBoolean(fn.strict, `${p}.function.strict`);
    if (fn.parameters !== undefined) {
      expectObject(fn.parameters, `${p}.function.parameters`);
      expectSchema(
        fn.parameters as Record<string, unknown>,
        `${p}.function.parameters`,
        `function '${fn.name as string}'`,
        'invalid_function_parameters',
        fn.strict === true,
      );
    }
    return {
      name: fn.name as string,
      description: fn.description as string | undefined,
      parameters: (fn.parameters as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} },
      strict: (fn.strict as boolean | undefined) ?? undefined,
    };
  });
}

function decodeToolChoice(raw: unknown, tools: ToolDefinition[]): ToolChoice {
  if (raw === undefined || raw === null) return { type: 'auto' };
  if (tools.length === 0) {
    fail(`Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.`, 'tool_choice');
  }
  if (typeof raw === 'string') {
    if (raw === 'auto' || raw === 'none' || raw === 'required') return { type: raw };
    fail(`Invalid value: '${raw}'. Supported values are: 'none', 'auto', and 'required'.`, 'tool_choice', 'invalid_value');
  }
  expectObject(raw, 'tool_choice', 'one of a string or an object');
  const choice = raw as Record<string, unknown>;
  if (choice.type === 'allowed_tools' || choice.type === 'custom') {
    fail(
      `Understudy supports 'tool_choice' as 'none', 'auto', 'required' or a function ({"type":"function","function":{"name":…}}); '${choice.type}' is not supported.`,
      'tool_choice.type',
      'unsupported_value',
    );
  }
  if (choice.type !== 'function') {
    fail(
      `Invalid value: '${String(choice.type)}'. Supported values are: 'function', 'allowed_tools', and 'custom'.`,
      'tool_choice.type',
      'invalid_value',
    );
  }
  expectObject(choice.function, 'tool_choice.function');
  const name = (choice.function as Record<string, unknown>).name;
  expectString(name, 'tool_choice.function.name');
  if (!tools.some((t) => t.name === name)) {
    fail(`Invalid value for 'tool_choice': function '${String(name)}' is not among the declared tools.`, 'tool_choice', 'invalid_value');
  }
  return { type: 'named', name: name as string };
}

function decodeResponseFormat(raw: unknown): OutputFormat {
  if (raw === undefined || raw === null) return { type: 'text' };
  expectObject(raw, 'response_format');
  const format = raw as Record<string, unknown>;
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      if (format.json_schema === undefined) {
        fail(`Missing required parameter: 'response_format.json_schema'.`, 'response_format.json_schema', 'missing_required_parameter');
      }
      expectObject(format.json_schema, 'response_format.json_schema');
      const spec = format.json_schema as Record<string, unknown>;
      if (spec.name === undefined) {
        fail(
          `Missing required parameter: 'response_format.json_schema.name'.`,
          'response_format.json_schema.name',
          'missing_required_parameter',
        );
      }
      expectName(spec.name, 'response_format.json_schema.name');
      if (given(spec.description)) expectString(spec.description, 'response_format.json_schema.description');
      if (spec.strict !== undefined && spec.strict !== null) expectBoolean(spec.strict, 'response_format.json_schema.strict');
      if (spec.schema !== undefined) {
        expectObject(spec.schema, 'response_format.json_schema.schema');
        expectSchema(
          spec.schema as Record<string, unknown>,
          'response_format.json_schema.schema',
          `response_format '${spec.name as string}'`,
          'invalid_json_schema',
          spec.strict === true,
        );
      }
      return {
        type: 'json_schema',
        name: spec.name as string,
        schema: (spec.schema as Record<string, unknown> | undefined) ?? {},
        strict: (spec.strict as boolean | undefined) ?? undefined,
      };
    }
    case undefined:
      fail(`Missing required parameter: 'response_format.type'.`, 'response_format.type', 'missing_required_parameter');
    // falls through (fail never returns)
    default:
      fail(
        `Invalid value: '${String(format.type)}'. Supported values are: 'json_object', 'json_schema', and 'text'.`,
        'response_format.type',
        'invalid_value',
      );
  }
}

const STREAM_OPTIONS = object({ include_usage: boolean, include_obfuscation: boolean });

function mentionsJson(messages: Message[]): boolean {
  for (const message of messages) {
    for (const part of message.parts) {
      if ((part.type === 'text' && /json/i.test(part.text)) || (part.type === 'tool_result' && /json/i.test(part.content))) return true;
    }
  }
  return false;
}

export function decodeChatRequest(
  body: unknown,
  _wire?: WireContext,
  fields: Readonly<Record<string, FieldRule>> = CHAT_FIELDS,
): ChatRequest | NeutralError {
  if (!isObject(body)) {
    return invalidRequest(`Invalid type for body: expected an object, but got ${typeName(body)} instead.`, null, 'invalid_type');
  }
  return refusalOr(() => decodeBody(body, fields));
}

function decodeBody(body: Record<string, unknown>, fields: Readonly<Record<string, FieldRule>>): ChatRequest {
  if (body.model === undefined || body.model === null || body.model === '') {
    fail('you must provide a model parameter', null);
  }
  expectString(body.model, 'model');
  if (given(body.functions)) {
    fail(
      `Understudy rejects the deprecated 'functions' parameter; declare 'tools' with type 'function' instead.`,
      'functions',
      'invalid_value',
    );
  }
  if (given(body.function_call)) {
    fail(`Understudy rejects the deprecated 'function_call' parameter; use 'tool_choice' instead.`, 'function_call', 'invalid_value');
  }
  checkFields(body, fields, unrecognized);
  const messages = decodeMessages(body.messages);
  const tools = decodeTools(body.tools);
  const toolChoice = decodeToolChoice(body.tool_choice, tools);
  if (body.parallel_tool_calls !== undefined && body.parallel_tool_calls !== null) {
    expectBoolean(body.parallel_tool_calls, 'parallel_tool_calls');
    if (tools.length === 0) {
      fail(
        `Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.`,
        'parallel_tool_calls',
      );
    }
  }
  const output = decodeResponseFormat(body.response_format);
  let stream = false;
  if (body.stream !== undefined && body.stream !== null) {
    expectBoolean(body.stream, 'stream');
    stream = body.stream as boolean;
  }
  let streamUsage = false;
  if (body.stream_options !== undefined && body.stream_options !== null) {
    if (!stream) fail(`The 'stream_options' parameter is only allowed when 'stream' is enabled.`, 'stream_options');
    STREAM_OPTIONS(body.stream_options, 'stream_options');
    streamUsage = (body.stream_options as Record<string, unknown>).include_usage === true;
  }
  if (body.n !== undefined && body.n !== null) {
    expectInteger(body.n, 'n', { min: 1, max: 128 });
    if (body.n !== 1) fail(`Understudy answers exactly one choice; 'n' must be 1 (got ${String(body.n)}).`, 'n', 'invalid_value');
  }
  let maxOutputTokens: number | undefined;
  for (const key of ['max_tokens', 'max_completion_tokens'] as const) {
    const value = body[key];
    if (value !== undefined && value !== null) {
      expectInteger(value, key, { min: 1 });
      maxOutputTokens = value as number;
    }
  }
  if (output.type === 'json_object' && !mentionsJson(messages)) {
    fail(`'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.`, 'messages');
  }
  return {
    model: body.model as string,
    messages,
    tools,
    toolChoice,
    parallelToolCalls: body.parallel_tool_calls !== false,
    output,
    stream,
    streamUsage,
    maxOutputTokens,
  };
}
