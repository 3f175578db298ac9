// `input` — a string or a list of items — to neutral messages. Messages keep their role;
// consecutive assistant-side items (an assistant message, reasoning, function calls, references to
// stored output items) become one assistant message, as one model turn is on other wires; each
// function_call_output becomes a tool message.

import type { JsonValue, Message, Part, Role } from '../../core/model.js';
import { given } from '../wire-kit/values.js';
import {
  expectArray,
  expectEnum,
  expectLength,
  expectName,
  expectObject,
  expectString,
  expectUrl,
  fail,
  required,
} from '../openai/checks.js';
import { promptCacheBreakpoint } from '../openai/field-rules.js';
import { listValues } from '../openai/wording.js';

export interface ItemResolver {
  /** The parts of a stored output item (`item_reference`); throws a wire error when unknown. */
  item(id: string, param: string): Part[];
}

const ITEM_TYPES = ['message', 'function_call', 'function_call_output', 'reasoning', 'item_reference'] as const;
const MESSAGE_ROLES = ['user', 'assistant', 'system', 'developer'] as const;
const INPUT_PARTS = ['input_text', 'input_image', 'input_file'] as const;
const OUTPUT_PARTS = ['output_text', 'refusal'] as const;
const ITEM_STATUSES = ['in_progress', 'completed', 'incomplete'] as const;
const MESSAGE_PHASES = ['commentary', 'final_answer'] as const;
/** A function_call_output's `call_id` and string `output`, as the OpenAPI document bounds them. */
const CALL_ID_LENGTH = { min: 1, max: 64 };
const OUTPUT_NAME_LENGTH = { min: 1, max: 128 };
const OUTPUT_LENGTH = { max: 10_485_760 };

/** Items the real API takes for its own hosted or free-form tools; Understudy runs none of them. */
const HOSTED_ITEMS = new Set([
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'custom_tool_call',
  'custom_tool_call_output',
  'tool_search_call',
  'tool_search_output',
  'compaction',
  'compaction_trigger',
  'additional_tools',
  'program',
  'program_output',
]);

/** A call's or an output's `caller`: `{type: "direct"}` or `{type: "program", caller_id}` (1–64
 * characters), ToolCallCallerParam. */
function checkCaller(raw: unknown, p: string): void {
  const caller = expectObject(raw, p);
  required(caller.type, `${p}.type`);
  if (expectEnum(caller.type, ['direct', 'program'], `${p}.type`) === 'program') {
    required(caller.caller_id, `${p}.caller_id`);
    expectLength(expectString(caller.caller_id, `${p}.caller_id`), `${p}.caller_id`, CALL_ID_LENGTH);
  }
}

function parseArguments(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

function decodeInputParts(content: unknown, param: string): Part[] {
  if (typeof content === 'string') return content.length ? [{ type: 'text', text: content }] : [];
  expectArray(content, param, 'one of a string or array of input content parts');
  const parts: Part[] = [];
  (content as unknown[]).forEach((raw, i) => {
    const p = `${param}[${i}]`;
    expectObject(raw, p);
    const part = raw as Record<string, unknown>;
    required(part.type, `${p}.type`);
    expectEnum(part.type, INPUT_PARTS, `${p}.type`);
    if (given(part.prompt_cache_breakpoint)) promptCacheBreakpoint(part.prompt_cache_breakpoint, `${p}.prompt_cache_breakpoint`);
    switch (part.type) {
      case 'input_text':
        required(part.text, `${p}.text`);
        expectString(part.text, `${p}.text`);
        parts.push({ type: 'text', text: part.text as string });
        break;
      case 'input_image': {
        if (given(part.detail)) expectEnum(part.detail, ['low', 'high', 'auto', 'original'], `${p}.detail`);
        if (given(part.image_url)) {
          expectUrl(part.image_url, `${p}.image_url`);
          parts.push({ type: 'image', url: part.image_url as string });
        } else if (given(part.file_id)) {
          expectString(part.file_id, `${p}.file_id`);
          parts.push({ type: 'image', url: part.file_id as string });
        } else {
          fail(
            `Missing required parameter: '${p}.image_url'. Give an 'image_url' or a 'file_id'.`,
            `${p}.image_url`,
            'missing_required_parameter',
          );
        }
        break;
      }
      case 'input_file':
        // Accepted as the API does; files have no neutral part, so scripts cannot match on them.
        if (!given(part.file_id) && !given(part.file_data) && !given(part.file_url)) {
          fail(
            `Missing required parameter: '${p}.file_id'. Give a 'file_id', 'file_data' or 'file_url'.`,
            `${p}.file_id`,
            'missing_required_parameter',
          );
        }
        for (const key of ['file_id', 'file_data', 'filename'] as const) {
          if (given(part[key])) expectString(part[key], `${p}.${key}`);
        }
        if (given(part.file_url)) expectUrl(part.file_url, `${p}.file_url`);
        break;
    }
  });
  return parts;
}

function decodeAssistantParts(content: unknown, param: string): Part[] {
  if (typeof content === 'string') return content.length ? [{ type: 'text', text: content }] : [];
  expectArray(content, param, 'one of a string or array of output content parts');
  const parts: Part[] = [];
  (content as unknown[]).forEach((raw, i) => {
    const p = `${param}[${i}]`;
    expectObject(raw, p);
    const part = raw as Record<string, unknown>;
    required(part.type, `${p}.type`);
    expectEnum(part.type, OUTPUT_PARTS, `${p}.type`);
    if (part.type === 'output_text') {
      required(part.text, `${p}.text`);
      expectString(part.text, `${p}.text`);
      if (given(part.annotations)) expectArray(part.annotations, `${p}.annotations`);
      parts.push({ type: 'text', text: part.text as string });
    } else {
      required(part.refusal, `${p}.refusal`);
      expectString(part.refusal, `${p}.refusal`);
      parts.push({ type: 'text', text: part.refusal as string });
    }
  });
  return parts;
}

function decodeToolOutput(output: unknown, param: string): string {
  if (typeof output === 'string') return output;
  expectArray(output, param, 'one of a string or array of input content parts');
  let text = '';
  for (const part of decodeInputParts(output, param)) if (part.type === 'text') text += part.text;
  return text;
}

function decodeReasoning(item: Record<string, unknown>, p: string): Part[] {
  required(item.summary, `${p}.summary`);
  expectArray(item.summary, `${p}.summary`, 'an array of objects');
  const parts: Part[] = [];
  (item.summary as unknown[]).forEach((raw, i) => {
    const sp = `${p}.summary[${i}]`;
    expectObject(raw, sp);
    const summary = raw as Record<string, unknown>;
    required(summary.type, `${sp}.type`);
    expectEnum(summary.type, ['summary_text'], `${sp}.type`);
    required(summary.text, `${sp}.text`);
    expectString(summary.text, `${sp}.text`);
    parts.push({ type: 'reasoning', text: summary.text as string });
  });
  if (given(item.content)) {
    expectArray(item.content, `${p}.content`, 'an array of objects');
    (item.content as unknown[]).forEach((raw, i) => {
      const cp = `${p}.content[${i}]`;
      expectObject(raw, cp);
      const part = raw as Record<string, unknown>;
      expectEnum(part.type, ['reasoning_text'], `${cp}.type`);
      expectString(part.text, `${cp}.text`);
      parts.push({ type: 'reasoning', text: part.text as string });
    });
  }
  if (given(item.encrypted_content)) expectString(item.encrypted_content, `${p}.encrypted_content`);
  return parts;
}

export function decodeInput(raw: unknown, resolver: ItemResolver): Message[] {
  if (typeof raw === 'string') return [{ role: 'user', parts: raw.length ? [{ type: 'text', text: raw }] : [] }];
  expectArray(raw, 'input', 'one of a string or array of input items');

  const messages: Message[] = [];
  /** The assistant message that consecutive assistant-side items add to. */
  let turn: Message | undefined;
  const addAssistant = (parts: Part[]) => {
    if (!turn) messages.push((turn = { role: 'assistant', parts: [] }));
    for (const part of parts) turn.parts.push(part); // not push(...): a long spread overflows the stack
  };

  (raw as unknown[]).forEach((rawItem, i) => {
    const p = `input[${i}]`;
    expectObject(rawItem, p);
    const item = rawItem as Record<string, unknown>;
    if (given(item.id)) expectString(item.id, `${p}.id`);
    let type = item.type;
    if (type === undefined) {
      if (item.role === undefined) fail(`Missing required parameter: '${p}.type'.`, `${p}.type`, 'missing_required_parameter');
      type = 'message';
    }
    expectString(type, `${p}.type`);
    if (HOSTED_ITEMS.has(type as string)) {
      fail(
        `Understudy does not accept '${String(type)}' items: it runs no server-hosted or custom tools. Declare function tools and send 'function_call' and 'function_call_output' items.`,
        `${p}.type`,
        'unsupported_value',
      );
    }
    switch (type) {
      case 'message': {
        required(item.role, `${p}.role`);
        expectEnum(item.role, MESSAGE_ROLES, `${p}.role`);
        if (given(item.status)) expectEnum(item.status, ITEM_STATUSES, `${p}.status`);
        if (given(item.phase)) expectEnum(item.phase, MESSAGE_PHASES, `${p}.phase`);
        required(item.content, `${p}.content`);
        if (item.role === 'assistant') {
          addAssistant(decodeAssistantParts(item.content, `${p}.content`));
        } else {
          messages.push({ role: item.role as Role, parts: decodeInputParts(item.content, `${p}.content`) });
          turn = undefined;
        }
        break;
      }
      case 'function_call': {
        for (const key of ['call_id', 'name', 'arguments'] as const) {
          required(item[key], `${p}.${key}`);
          expectString(item[key], `${p}.${key}`);
        }
        if (given(item.status)) expectEnum(item.status, ITEM_STATUSES, `${p}.status`);
        if (given(item.namespace)) expectString(item.namespace, `${p}.namespace`);
        if (given(item.caller)) checkCaller(item.caller, `${p}.caller`);
        const argumentsText = item.arguments as string;
        addAssistant([
          {
            type: 'tool_call',
            id: item.call_id as string,
            name: item.name as string,
            argumentsText,
            arguments: parseArguments(argumentsText),
          },
        ]);
        break;
      }
      case 'function_call_output': {
        required(item.call_id, `${p}.call_id`);
        expectLength(expectString(item.call_id, `${p}.call_id`), `${p}.call_id`, CALL_ID_LENGTH);
        if (given(item.status)) expectEnum(item.status, ITEM_STATUSES, `${p}.status`);
        if (given(item.name)) expectLength(expectString(item.name, `${p}.name`), `${p}.name`, OUTPUT_NAME_LENGTH);
        if (given(item.namespace)) expectName(item.namespace, `${p}.namespace`);
        if (given(item.caller)) checkCaller(item.caller, `${p}.caller`);
        required(item.output, `${p}.output`);
        if (typeof item.output === 'string') expectLength(item.output, `${p}.output`, OUTPUT_LENGTH);
        const content = decodeToolOutput(item.output, `${p}.output`);
        // The tool name is filled in from the matching call once the whole history is known.
        messages.push({
          role: 'tool',
          parts: [{ type: 'tool_result', callId: item.call_id as string, name: undefined, content, isError: false }],
        });
        turn = undefined;
        break;
      }
      case 'reasoning':
        if (given(item.status)) expectEnum(item.status, ITEM_STATUSES, `${p}.status`);
        addAssistant(decodeReasoning(item, p));
        break;
      case 'item_reference':
        required(item.id, `${p}.id`);
        addAssistant(resolver.item(item.id as string, `${p}.id`));
        break;
      default:
        fail(`Invalid value: '${String(type)}'. Supported values are: ${listValues(ITEM_TYPES)}.`, `${p}.type`, 'invalid_value');
    }
  });
  return messages;
}
