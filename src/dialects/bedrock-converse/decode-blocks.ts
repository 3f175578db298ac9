// The content blocks a Converse message, a system prompt or a tool result may hold, each a union
// of one member (`{"text": …}`, `{"image": {…}}`, `{"toolUse": {…}}` …), checked member by member
// as the API's model describes them. Text, images, tool uses, tool results and reasoning become
// neutral parts; documents, video, audio, search results, citations and guard content are checked
// and left out of the neutral record (guard content's text is kept as text).

import type { JsonValue, Part } from '../../core/model.js';
import { given, isObject } from '../wire-kit/values.js';
import {
  constraint,
  element,
  expectArray,
  expectBoolean,
  expectEnum,
  expectObject,
  expectString,
  fail,
  onlyMembers,
  requiredMember,
  unionMember,
} from '../bedrock/wording.js';
import type { Scope } from './decode-scope.js';

export const CONTENT_BLOCKS = [
  'text',
  'image',
  'document',
  'video',
  'audio',
  'toolUse',
  'toolResult',
  'guardContent',
  'cachePoint',
  'reasoningContent',
  'citationsContent',
  'searchResult',
  'toolAddition',
  'toolRemoval',
];
const IMAGE_FORMATS = ['gif', 'jpeg', 'png', 'webp'];
const DOCUMENT_FORMATS = ['csv', 'doc', 'docx', 'html', 'md', 'pdf', 'txt', 'xls', 'xlsx'];
const VIDEO_FORMATS = ['flv', 'mkv', 'mov', 'mp4', 'mpeg', 'mpg', 'three_gp', 'webm', 'wmv'];
const AUDIO_FORMATS = ['aac', 'flac', 'm4a', 'mka', 'mkv', 'mp3', 'mp4', 'mpeg', 'mpga', 'ogg', 'opus', 'pcm', 'wav', 'webm'];
const TOOL_RESULT_BLOCKS = ['json', 'text', 'image', 'document', 'video', 'searchResult'];
const TOOL_USE_ID = /^[a-zA-Z0-9_.:-]+$/;
/** A tool's name, declared or called (a replayed call's name is checked too). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TOOL_USE_ID_MAX = 64;

const IMAGE_MEMBERS = new Set(['format', 'source', 'error']);
const DOCUMENT_MEMBERS = new Set(['name', 'source', 'format', 'context', 'citations']);
const MEDIA_MEMBERS = new Set(['format', 'source']);
const AUDIO_MEMBERS = new Set(['format', 'source', 'error']);
const TOOL_USE_MEMBERS = new Set(['toolUseId', 'name', 'input', 'type']);
const TOOL_RESULT_MEMBERS = new Set(['toolUseId', 'content', 'status', 'type']);
const CACHE_POINT_MEMBERS = new Set(['type', 'ttl']);
const REASONING_TEXT_MEMBERS = new Set(['text', 'signature']);
const SEARCH_RESULT_MEMBERS = new Set(['source', 'title', 'content', 'citations']);
const S3_MEMBERS = new Set(['uri', 'bucketOwner']);
const GUARD_TEXT_MEMBERS = new Set(['text', 'qualifiers']);
const GUARD_QUALIFIERS = ['grounding_source', 'query', 'guard_content'];

/** A blob member: base64 text on the wire. */
function blob(value: unknown, path: string): string {
  const text = expectString(value, path);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) constraint(path, '…', 'Member must be valid base64-encoded bytes');
  return text;
}

/** A media source: bytes or an S3 location (documents also take text or content blocks). */
function source(raw: unknown, path: string, kinds: readonly string[]): { bytes?: string; uri?: string } {
  const s = expectObject(raw, path);
  const kind = unionMember(s, kinds, path);
  const at = `${path}.${kind}`;
  switch (kind) {
    case 'bytes':
      return { bytes: blob(s.bytes, at) };
    case 's3Location': {
      const location = expectObject(s.s3Location, at);
      onlyMembers(location, S3_MEMBERS, at);
      const uri = expectString(requiredMember(location, 'uri', at), `${at}.uri`);
      if (!uri.startsWith('s3://')) constraint(`${at}.uri`, uri, 'Member must satisfy regular expression pattern: s3://.*');
      if (given(location.bucketOwner)) expectString(location.bucketOwner, `${at}.bucketOwner`);
      return { uri };
    }
    case 'text':
      expectString(s.text, at);
      return {};
    default:
      expectArray(s.content, at).forEach((item, i) => {
        const p = element(at, i);
        const block = expectObject(item, p);
        unionMember(block, ['text'], p);
        expectString(block.text, `${p}.text`);
      });
      return {};
  }
}

function imagePart(raw: unknown, path: string): Part {
  const image = expectObject(raw, path);
  onlyMembers(image, IMAGE_MEMBERS, path);
  const format = expectEnum(requiredMember(image, 'format', path), IMAGE_FORMATS, `${path}.format`);
  const from = source(requiredMember(image, 'source', path), `${path}.source`, ['bytes', 's3Location']);
  const mediaType = `image/${format}`;
  return { type: 'image', url: from.bytes !== undefined ? `data:${mediaType};base64,${from.bytes}` : (from.uri as string), mediaType };
}

function checkDocument(raw: unknown, path: string): void {
  const document = expectObject(raw, path);
  onlyMembers(document, DOCUMENT_MEMBERS, path);
  expectString(requiredMember(document, 'name', path), `${path}.name`);
  source(requiredMember(document, 'source', path), `${path}.source`, ['bytes', 's3Location', 'text', 'content']);
  if (given(document.format)) expectEnum(document.format, DOCUMENT_FORMATS, `${path}.format`);
  if (given(document.context)) expectString(document.context, `${path}.context`);
  if (given(document.citations)) {
    const citations = expectObject(document.citations, `${path}.citations`);
    onlyMembers(citations, new Set(['enabled']), `${path}.citations`);
    expectBoolean(requiredMember(citations, 'enabled', `${path}.citations`), `${path}.citations.enabled`);
  }
}

function checkMedia(raw: unknown, path: string, formats: readonly string[], members: ReadonlySet<string>): void {
  const media = expectObject(raw, path);
  onlyMembers(media, members, path);
  expectEnum(requiredMember(media, 'format', path), formats, `${path}.format`);
  source(requiredMember(media, 'source', path), `${path}.source`, ['bytes', 's3Location']);
}

function checkSearchResult(raw: unknown, path: string): void {
  const result = expectObject(raw, path);
  onlyMembers(result, SEARCH_RESULT_MEMBERS, path);
  expectString(requiredMember(result, 'source', path), `${path}.source`);
  expectString(requiredMember(result, 'title', path), `${path}.title`);
  expectArray(requiredMember(result, 'content', path), `${path}.content`).forEach((item, i) => {
    const p = element(`${path}.content`, i);
    const block = expectObject(item, p);
    onlyMembers(block, new Set(['text']), p);
    expectString(requiredMember(block, 'text', p), `${p}.text`);
  });
}

/** A cachePoint block: marks the prompt up to here as cached. */
export function cachePoint(raw: unknown, path: string, scope: Scope): void {
  const point = expectObject(raw, path);
  onlyMembers(point, CACHE_POINT_MEMBERS, path);
  expectEnum(requiredMember(point, 'type', path), ['default'], `${path}.type`);
  if (given(point.ttl)) expectEnum(point.ttl, ['5m', '1h'], `${path}.ttl`);
  scope.cachePoint = true;
}

/** guardContent: text (kept as text) or an image for the guardrail to assess. */
export function guardContent(raw: unknown, path: string): Part | null {
  const guard = expectObject(raw, path);
  const kind = unionMember(guard, ['text', 'image'], path);
  const at = `${path}.${kind}`;
  if (kind === 'image') {
    const image = expectObject(guard.image, at);
    onlyMembers(image, MEDIA_MEMBERS, at);
    expectEnum(requiredMember(image, 'format', at), ['jpeg', 'png'], `${at}.format`);
    source(requiredMember(image, 'source', at), `${at}.source`, ['bytes']);
    return null;
  }
  const text = expectObject(guard.text, at);
  onlyMembers(text, GUARD_TEXT_MEMBERS, at);
  const value = expectString(requiredMember(text, 'text', at), `${at}.text`);
  if (given(text.qualifiers)) {
    expectArray(text.qualifiers, `${at}.qualifiers`).forEach((q, i) => expectEnum(q, GUARD_QUALIFIERS, element(`${at}.qualifiers`, i)));
  }
  return value.length > 0 ? { type: 'text', text: value } : null;
}

function toolUseId(value: unknown, path: string): string {
  const id = expectString(value, path);
  if (id.length < 1 || id.length > TOOL_USE_ID_MAX) constraint(path, id, `Member must have length between 1 and ${TOOL_USE_ID_MAX}`);
  if (!TOOL_USE_ID.test(id)) constraint(path, id, 'Member must satisfy regular expression pattern: [a-zA-Z0-9_.:-]+');
  return id;
}

/** A document member the service wants to be a JSON object (a tool's input, a json result). */
function jsonObject(value: unknown, path: string): JsonValue {
  if (!isObject(value)) fail(path, `The format of the value at ${path} is invalid. Provide a json object for the field and try again.`);
  return value as JsonValue;
}

function toolUsePart(raw: unknown, path: string, scope: Scope): Part {
  const use = expectObject(raw, path);
  onlyMembers(use, TOOL_USE_MEMBERS, path);
  const id = toolUseId(requiredMember(use, 'toolUseId', path), `${path}.toolUseId`);
  const name = expectString(requiredMember(use, 'name', path), `${path}.name`);
  if (!TOOL_NAME.test(name)) constraint(`${path}.name`, name, 'Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+');
  const input = jsonObject(requiredMember(use, 'input', path), `${path}.input`);
  if (given(use.type)) expectEnum(use.type, ['server_tool_use'], `${path}.type`);
  scope.callNames.set(id, name);
  return { type: 'tool_call', id, name, argumentsText: JSON.stringify(input), arguments: input };
}

function toolResultPart(raw: unknown, path: string, scope: Scope): Part {
  const result = expectObject(raw, path);
  onlyMembers(result, TOOL_RESULT_MEMBERS, path);
  const id = toolUseId(requiredMember(result, 'toolUseId', path), `${path}.toolUseId`);
  let content = '';
  const blocks = expectArray(requiredMember(result, 'content', path), `${path}.content`);
  blocks.forEach((item, i) => {
    const p = element(`${path}.content`, i);
    const block = expectObject(item, p);
    const kind = unionMember(block, TOOL_RESULT_BLOCKS, p);
    const at = `${p}.${kind}`;
    switch (kind) {
      case 'text':
        content += expectString(block.text, at);
        break;
      case 'json':
        content += JSON.stringify(jsonObject(block.json, at));
        break;
      case 'image':
        imagePart(block.image, at);
        break;
      case 'document':
        checkDocument(block.document, at);
        break;
      case 'video':
        checkMedia(block.video, at, VIDEO_FORMATS, MEDIA_MEMBERS);
        break;
      default:
        checkSearchResult(block.searchResult, at);
    }
  });
  const status = given(result.status) ? expectEnum(result.status, ['success', 'error'], `${path}.status`) : 'success';
  if (status === 'error' && blocks.length === 0) {
    fail(`${path}.content`, `The content field at ${path} cannot be empty when status value is error.`);
  }
  if (given(result.type)) expectString(result.type, `${path}.type`);
  return { type: 'tool_result', callId: id, name: scope.callNames.get(id), content, isError: status === 'error' };
}

function reasoningPart(raw: unknown, path: string): Part | null {
  const reasoning = expectObject(raw, path);
  const kind = unionMember(reasoning, ['reasoningText', 'redactedContent'], path);
  const at = `${path}.${kind}`;
  if (kind === 'redactedContent') {
    blob(reasoning.redactedContent, at);
    return null;
  }
  const text = expectObject(reasoning.reasoningText, at);
  onlyMembers(text, REASONING_TEXT_MEMBERS, at);
  const value = expectString(requiredMember(text, 'text', at), `${at}.text`);
  if (given(text.signature)) expectString(text.signature, `${at}.signature`);
  return { type: 'reasoning', text: value };
}

/** Blocks only one role may send. */
const ASSISTANT_ONLY = new Set(['toolUse', 'reasoningContent', 'citationsContent']);
const USER_ONLY = new Set(['toolResult']);

/** One content block of a message with role `role` at `path`, as a neutral part (null for one
 * the neutral record leaves out). */
export function contentBlock(raw: unknown, path: string, role: 'user' | 'assistant', scope: Scope): Part | null {
  const block = expectObject(raw, path);
  const kind = unionMember(block, CONTENT_BLOCKS, path);
  if (ASSISTANT_ONLY.has(kind) && role !== 'assistant')
    fail(path, `The ${kind} content block is only allowed in messages with the assistant role.`);
  if (USER_ONLY.has(kind) && role !== 'user') fail(path, `The ${kind} content block is only allowed in messages with the user role.`);
  if ((kind === 'toolUse' || kind === 'toolResult') && !scope.toolConfig) {
    fail('toolConfig', 'The toolConfig field must be defined when using toolUse and toolResult content blocks.');
  }
  const at = `${path}.${kind}`;
  switch (kind) {
    case 'text': {
      const text = expectString(block.text, at);
      if (text.trim() === '') {
        fail(at, `The text field in the ContentBlock object at ${path} is blank. Add text to the text field, and try again.`);
      }
      return { type: 'text', text };
    }
    case 'image':
      return imagePart(block.image, at);
    case 'document':
      checkDocument(block.document, at);
      return null;
    case 'video':
      checkMedia(block.video, at, VIDEO_FORMATS, MEDIA_MEMBERS);
      return null;
    case 'audio':
      checkMedia(block.audio, at, AUDIO_FORMATS, AUDIO_MEMBERS);
      return null;
    case 'toolUse':
      return toolUsePart(block.toolUse, at, scope);
    case 'toolResult':
      return toolResultPart(block.toolResult, at, scope);
    case 'guardContent':
      return guardContent(block.guardContent, at);
    case 'cachePoint':
      cachePoint(block.cachePoint, at, scope);
      return null;
    case 'reasoningContent':
      return reasoningPart(block.reasoningContent, at);
    case 'searchResult':
      checkSearchResult(block.searchResult, at);
      return null;
    default:
      // citationsContent, toolAddition, toolRemoval: structures the neutral record has no place for.
      expectObject(block[kind], at);
      return null;
  }
}
