// `contents` and `systemInstruction` to neutral messages. A `model` turn is the assistant; a
// `user` turn's function responses become a tool message (and its other parts a user message
// after it). Gemini often sends no function-call ids; the neutral request needs them, so a call
// without one gets `<name>@<content index>.<part index>`, and a response without one takes the id
// of the first unanswered call of the same name in the turn before it.

import type { JsonValue, Message, Part, ToolCallPart } from '../../core/model.js';
import { ENUM, field, onlyKnownFields, snake, unset } from './proto-fields.js';
import { checkMessage, CODE_EXECUTION_RESULT, EXECUTABLE_CODE } from './proto-members.js';
import { isObject } from '../wire-kit/values.js';
import { expectArray, expectBoolean, expectEnum, expectObject, expectString, fieldRule, invalidValue, requestRule } from './wording.js';

const CONTENT_FIELDS = new Set(['role', 'parts']);
/** The members of a part's `data` oneof: exactly one may be set. */
const DATA_FIELDS = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
  'toolCall',
  'toolResponse',
] as const;
const PART_FIELDS = new Set<string>([...DATA_FIELDS, 'thought', 'thoughtSignature', 'videoMetadata', 'mediaResolution', 'partMetadata']);
/** Members of a part that are proto messages the neutral request does not record: type-checked only. */
const PART_MESSAGES = ['videoMetadata', 'mediaResolution', 'partMetadata'] as const;
const BLOB_FIELDS = new Set(['mimeType', 'data', 'displayName']);
const FILE_DATA_FIELDS = new Set(['mimeType', 'fileUri', 'displayName']);
const FUNCTION_CALL_FIELDS = new Set(['id', 'name', 'args', 'partialArgs', 'willContinue']);
const FUNCTION_RESPONSE_FIELDS = new Set(['id', 'name', 'response', 'parts', 'willContinue', 'scheduling']);
const SCHEDULINGS = ['SCHEDULING_UNSPECIFIED', 'SILENT', 'WHEN_IDLE', 'INTERRUPT'] as const;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

type Turn = 'user' | 'model' | 'system';

interface DecodedCall {
  kind: 'call';
  index: number;
  id: string | undefined;
  name: string;
  args: Record<string, unknown>;
}
interface DecodedResult {
  kind: 'result';
  index: number;
  id: string | undefined;
  name: string;
  response: Record<string, unknown>;
}
type DecodedPart = { kind: 'part'; part: Part } | DecodedCall | DecodedResult;

function decodePart(raw: unknown, at: string, turn: Turn, index: number): DecodedPart | undefined {
  const part = expectObject(raw, at);
  onlyKnownFields(part, PART_FIELDS, at);
  let dataKey: (typeof DATA_FIELDS)[number] | undefined;
  for (const key of DATA_FIELDS) {
    const value = field(part, key);
    if (unset(value) || (key === 'text' && value === '')) continue;
    if (dataKey !== undefined) {
      requestRule(`Invalid JSON payload received. Oneof field 'data' is already set. Cannot set '${key}'`, at);
    }
    dataKey = key;
  }
  const thought = field(part, 'thought');
  if (!unset(thought)) expectBoolean(thought, `${at}.thought`);
  const signature = field(part, 'thoughtSignature');
  if (!unset(signature)) expectString(signature, `${at}.thought_signature`);
  for (const key of PART_MESSAGES) {
    const member = field(part, key);
    if (!unset(member)) expectObject(member, `${at}.${snake(key)}`);
  }
  if (dataKey === undefined) {
    // A part that only carries a thought signature (as thinking models return them) is kept by
    // clients and sent back; it says nothing the neutral request records.
    if (!unset(signature)) return undefined;
    fieldRule(`${at}.data`, "required oneof field 'data' must have one initialized field");
  }
  const value = field(part, dataKey);
  const path = `${at}.${snake(dataKey)}`;
  switch (dataKey) {
    case 'text': {
      const text = expectString(value, path);
      return { kind: 'part', part: thought === true ? { type: 'reasoning', text } : { type: 'text', text } };
    }
    case 'inlineData': {
      const blob = expectObject(value, path);
      onlyKnownFields(blob, BLOB_FIELDS, path);
      const mimeType = field(blob, 'mimeType');
      if (unset(mimeType) || mimeType === '') fieldRule(`${path}.mime_type`, 'required field is not set');
      expectString(mimeType, `${path}.mime_type`);
      const data = field(blob, 'data');
      if (unset(data)) fieldRule(`${path}.data`, 'required field is not set');
      if (typeof data !== 'string' || !BASE64.test(data)) invalidValue(`${path}.data`, 'TYPE_BYTES', data);
      checkDisplayName(blob, path);
      return { kind: 'part', part: { type: 'image', url: `data:${mimeType as string};base64,${data}`, mediaType: mimeType as string } };
    }
    case 'fileData': {
      const file = expectObject(value, path);
      onlyKnownFields(file, FILE_DATA_FIELDS, path);
      const uri = field(file, 'fileUri');
      if (unset(uri) || uri === '') fieldRule(`${path}.file_uri`, 'required field is not set');
      expectString(uri, `${path}.file_uri`);
      const mimeType = field(file, 'mimeType');
      if (!unset(mimeType)) expectString(mimeType, `${path}.mime_type`);
      checkDisplayName(file, path);
      return {
        kind: 'part',
        part: { type: 'image', url: uri as string, ...(typeof mimeType === 'string' && mimeType !== '' && { mediaType: mimeType }) },
      };
    }
    case 'functionCall': {
      if (turn !== 'model') fieldRule(path, `a function call can only be part of a model turn, not a ${turn} turn`);
      const call = expectObject(value, path);
      const { name, id } = nameAndId(call, FUNCTION_CALL_FIELDS, path);
      const args = field(call, 'args');
      const partialArgs = field(call, 'partialArgs');
      if (!unset(partialArgs)) expectArray(partialArgs, `${path}.partial_args`);
      const callContinues = field(call, 'willContinue');
      if (!unset(callContinues)) expectBoolean(callContinues, `${path}.will_continue`);
      return {
        kind: 'call',
        index,
        id: unset(id) || id === '' ? undefined : (id as string),
        name: name as string,
        args: unset(args) ? {} : expectObject(args, `${path}.args`),
      };
    }
    case 'functionResponse': {
      if (turn !== 'user') fieldRule(path, `a function response can only be part of a user turn, not a ${turn} turn`);
      const result = expectObject(value, path);
      const { name, id } = nameAndId(result, FUNCTION_RESPONSE_FIELDS, path);
      const response = field(result, 'response');
      const parts = field(result, 'parts');
      if (!unset(parts)) expectArray(parts, `${path}.parts`);
      const willContinue = field(result, 'willContinue');
      if (!unset(willContinue)) expectBoolean(willContinue, `${path}.will_continue`);
      const scheduling = field(result, 'scheduling');
      if (!unset(scheduling)) expectEnum(scheduling, SCHEDULINGS, `${path}.scheduling`, `${ENUM}FunctionResponse.Scheduling`);
      return {
        kind: 'result',
        index,
        id: unset(id) || id === '' ? undefined : (id as string),
        name: name as string,
        response: unset(response) ? {} : expectObject(response, `${path}.response`),
      };
    }
    case 'executableCode':
    case 'codeExecutionResult':
      // Code execution records: valid history with no neutral equivalent.
      checkMessage(value, path, dataKey === 'executableCode' ? EXECUTABLE_CODE : CODE_EXECUTION_RESULT);
      return undefined;
    default:
      // Server-side tool records: valid history with no neutral equivalent.
      expectObject(value, path);
      return undefined;
  }
}

function checkDisplayName(media: Record<string, unknown>, path: string): void {
  const name = field(media, 'displayName');
  if (!unset(name)) expectString(name, `${path}.display_name`);
}

function decodeParts(raw: unknown, at: string, turn: Turn): DecodedPart[] {
  const path = `${at}.parts`;
  if (unset(raw)) fieldRule(path, 'contents.parts must not be empty.');
  const list = expectArray(raw, path);
  if (list.length === 0) fieldRule(path, 'contents.parts must not be empty.');
  const out: DecodedPart[] = [];
  list.forEach((rawPart, j) => {
    const decoded = decodePart(rawPart, `${path}[${j}]`, turn, j);
    if (decoded) out.push(decoded);
  });
  return out;
}

function role(raw: unknown, at: string): 'user' | 'model' {
  // An absent or empty role is the user's (single-turn requests usually leave it out).
  if (unset(raw) || raw === '') return 'user';
  const value = expectString(raw, at);
  if (value !== 'user' && value !== 'model') requestRule('Please use a valid role: user, model.', at);
  return value;
}

/** What a function response tells: its `output` (or `error`) when it names one, the `content` of
 * the `{ name, content }` the Vercel AI SDK's Google provider wraps a tool's output in (`name` being
 * the function's), else the whole object. */
function resultContent(response: Record<string, unknown>, name: string): { content: string; isError: boolean } {
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  if (response.output !== undefined) return { content: text(response.output), isError: false };
  if (response.error !== undefined) return { content: text(response.error), isError: true };
  if (response.content !== undefined && response.name === name && Object.keys(response).length === 2) {
    return { content: text(response.content), isError: false };
  }
  return { content: JSON.stringify(response), isError: false };
}

export function decodeContents(raw: unknown): Message[] {
  if (unset(raw)) fieldRule('contents', 'contents is not specified');
  const list = expectArray(raw, 'contents');
  if (list.length === 0) fieldRule('contents', 'contents is not specified');
  const messages: Message[] = [];
  let previous: { role: 'user' | 'model'; calls: ToolCallPart[] } | undefined;

  list.forEach((rawContent, i) => {
    const textParts = textOnlyTurn(rawContent);
    if (textParts) {
      messages.push({ role: textParts.role === 'model' ? 'assistant' : 'user', parts: textParts.parts });
      previous = { role: textParts.role, calls: [] };
      return;
    }
    const at = `contents[${i}]`;
    const content = expectObject(rawContent, at);
    onlyKnownFields(content, CONTENT_FIELDS, at);
    const turnRole = role(field(content, 'role'), `${at}.role`);
    const decoded = decodeParts(field(content, 'parts'), at, turnRole);

    if (turnRole === 'model') {
      const parts: Part[] = [];
      const calls: ToolCallPart[] = [];
      for (const d of decoded) {
        if (d.kind === 'part') {
          parts.push(d.part);
        } else if (d.kind === 'call') {
          const argumentsText = JSON.stringify(d.args);
          const call: ToolCallPart = {
            type: 'tool_call',
            id: d.id ?? `${d.name}@${i}.${d.index}`,
            name: d.name,
            argumentsText,
            arguments: d.args as JsonValue,
            ...(d.id === undefined && { idMade: true as const }),
          };
          calls.push(call);
          parts.push(call);
        }
      }
      if (calls.length > 0 && previous?.role !== 'user') {
        requestRule('Please ensure that function call turn comes immediately after a user turn or after a function response turn.', at);
      }
      messages.push({ role: 'assistant', parts });
      previous = { role: 'model', calls };
      return;
    }

    const results = decoded.filter((d): d is DecodedResult => d.kind === 'result');
    if (results.length > 0) {
      if (previous?.role !== 'model' || previous.calls.length === 0) {
        requestRule('Please ensure that function response turn comes immediately after a function call turn.', at);
      }
      if (results.length !== previous.calls.length) {
        requestRule(
          'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
          at,
        );
      }
      const unanswered = [...previous.calls];
      const toolParts: Part[] = results.map((r) => {
        let id = r.id;
        const match = id !== undefined ? unanswered.findIndex((c) => c.id === id) : unanswered.findIndex((c) => c.name === r.name);
        if (match >= 0) {
          id ??= unanswered[match].id;
          unanswered.splice(match, 1);
        }
        const { content: text, isError } = resultContent(r.response, r.name);
        const made = r.id === undefined && { callIdMade: true as const };
        return { type: 'tool_result', callId: id ?? `${r.name}@${i}.${r.index}`, name: r.name, content: text, isError, ...made };
      });
      messages.push({ role: 'tool', parts: toolParts });
    }
    const rest: Part[] = [];
    for (const d of decoded) if (d.kind === 'part') rest.push(d.part);
    if (rest.length > 0 || results.length === 0) messages.push({ role: 'user', parts: rest });
    previous = { role: 'user', calls: [] };
  });
  return messages;
}

/**
 * A content of text parts only, by far the most common kind, which cannot fail to decode: its role
 * and parts, read without the field lookups and paths the general decode makes for each part (a
 * long conversation is decoded in one turn of the event loop). Undefined for anything else,
 * which the general decode then reads (and refuses, where it is wrong).
 */
function textOnlyTurn(raw: unknown): { role: 'user' | 'model'; parts: Part[] } | undefined {
  if (!isObject(raw)) return undefined;
  let list: unknown;
  for (const key in raw) {
    if (key === 'parts') list = raw.parts;
    else if (key !== 'role') return undefined;
  }
  const wireRole = raw.role;
  const role =
    wireRole === undefined || wireRole === null || wireRole === '' || wireRole === 'user'
      ? 'user'
      : wireRole === 'model'
        ? 'model'
        : undefined;
  if (role === undefined || !Array.isArray(list) || list.length === 0) return undefined;
  const parts: Part[] = [];
  for (const part of list as unknown[]) {
    let text: unknown;
    if (!isObject(part)) return undefined;
    for (const key in part) {
      if (key !== 'text') return undefined;
      text = part.text;
    }
    if (typeof text !== 'string' || text === '') return undefined;
    parts.push({ type: 'text', text });
  }
  return { role, parts };
}

export function decodeSystemInstruction(raw: unknown): Message | undefined {
  if (unset(raw)) return undefined;
  const at = 'system_instruction';
  const content = expectObject(raw, at);
  onlyKnownFields(content, CONTENT_FIELDS, at);
  const r = field(content, 'role');
  if (!unset(r)) expectString(r, `${at}.role`);
  const parts: Part[] = [];
  for (const d of decodeParts(field(content, 'parts'), at, 'system')) if (d.kind === 'part') parts.push(d.part);
  return { role: 'system', parts };
}

/** A function call's or response's members checked, and its required name and optional id. */
function nameAndId(message: Record<string, unknown>, known: ReadonlySet<string>, path: string): { name: string; id: unknown } {
  onlyKnownFields(message, known, path);
  const name = field(message, 'name');
  if (unset(name) || name === '') fieldRule(`${path}.name`, 'name is required');
  expectString(name, `${path}.name`);
  const id = field(message, 'id');
  if (!unset(id)) expectString(id, `${path}.id`);
  return { name: name as string, id };
}
