// The Amazon Nova body (`schemaVersion: "messages-v1"`, optional): `system` text blocks, `messages`
// whose content blocks are text, images and videos (base64 `bytes` on InvokeModel, where Converse
// takes binary) and `cachePoint` markers, and `inferenceConfig` with `maxTokens` (or its older name
// `max_new_tokens`), `temperature`, `topP` / `top_p`, `topK` / `top_k`, `stopSequences` and Nova 2's
// `reasoningConfig`. A `cachePoint` anywhere makes prompt caching reported as marked.

import type { ChatRequest, Message, Part } from '../../core/model.js';
import { refuseToolOption } from './refusals.js';
import {
  expectArray,
  expectEnum,
  expectInteger,
  expectLength,
  expectNumber,
  expectObject,
  expectString,
  onlyMembers,
  refuse,
  requiredMember,
} from './wording.js';

const MEMBERS: ReadonlySet<string> = new Set(['schemaVersion', 'system', 'messages', 'inferenceConfig', 'toolConfig']);
const CONFIG_MEMBERS: ReadonlySet<string> = new Set([
  'maxTokens',
  'max_new_tokens',
  'temperature',
  'topP',
  'top_p',
  'topK',
  'top_k',
  'stopSequences',
  'reasoningConfig',
]);
const BLOCK_MEMBERS: ReadonlySet<string> = new Set(['text', 'image', 'video', 'cachePoint', 'toolUse', 'toolResult', 'reasoningContent']);
const MESSAGE_MEMBERS: ReadonlySet<string> = new Set(['role', 'content']);
const REASONING_MEMBERS: ReadonlySet<string> = new Set(['type', 'maxReasoningEffort']);
const SYSTEM_MEMBERS: ReadonlySet<string> = new Set(['text', 'cachePoint']);
const IMAGE_FORMATS = ['jpeg', 'png', 'gif', 'webp'];
const VIDEO_FORMATS = ['mkv', 'mov', 'mp4', 'webm', 'three_gp', 'flv', 'mpeg', 'mpg', 'wmv'];
const ROLES = ['user', 'assistant'] as const;
const AT_LEAST_ONE = { min: 1 };
const UNIT = { min: 0, max: 1 };
/** The most `maxTokens` Nova's request schema documents. */
const MOST_TOKENS = 5000;
const FIRST_USER = 'A conversation must start with a user message. Try again with a conversation that starts with a user message.';

/** `#/messages/0/content/1` → `messages.0.content.1`, for a refusal's param. */
function dotted(pointer: string): string {
  return pointer.slice(2).replaceAll('/', '.');
}

interface Scope {
  cachePoint: boolean;
}

function cachePoint(value: unknown, pointer: string, scope: Scope): void {
  const marker = expectObject(value, pointer);
  expectEnum(requiredMember(marker, 'type', pointer), ['default'], `${pointer}/type`);
  scope.cachePoint = true;
}

function imagePart(value: unknown, pointer: string): Part {
  const image = expectObject(value, pointer);
  const format = expectEnum(requiredMember(image, 'format', pointer), IMAGE_FORMATS, `${pointer}/format`);
  const source = expectObject(requiredMember(image, 'source', pointer), `${pointer}/source`);
  const bytes = expectString(requiredMember(source, 'bytes', `${pointer}/source`), `${pointer}/source/bytes`);
  const mediaType = `image/${format}`;
  return { type: 'image', url: `data:${mediaType};base64,${bytes}`, mediaType };
}

function checkVideo(value: unknown, pointer: string): void {
  const video = expectObject(value, pointer);
  expectEnum(requiredMember(video, 'format', pointer), VIDEO_FORMATS, `${pointer}/format`);
  const source = expectObject(requiredMember(video, 'source', pointer), `${pointer}/source`);
  if (source.s3Location !== undefined) {
    const location = expectObject(source.s3Location, `${pointer}/source/s3Location`);
    expectString(requiredMember(location, 'uri', `${pointer}/source/s3Location`), `${pointer}/source/s3Location/uri`);
  } else {
    expectString(requiredMember(source, 'bytes', `${pointer}/source`), `${pointer}/source/bytes`);
  }
}

function decodeBlock(raw: unknown, pointer: string, role: string, scope: Scope): Part | null {
  const block = expectObject(raw, pointer);
  onlyMembers(block, BLOCK_MEMBERS, pointer);
  if (block.toolUse !== undefined) refuseToolOption(`${dotted(pointer)}.toolUse`);
  if (block.toolResult !== undefined) refuseToolOption(`${dotted(pointer)}.toolResult`);
  if (block.text !== undefined) return { type: 'text', text: expectString(block.text, `${pointer}/text`) };
  if (block.image !== undefined) return imagePart(block.image, `${pointer}/image`);
  if (block.video !== undefined) {
    checkVideo(block.video, `${pointer}/video`);
    return null;
  }
  if (block.reasoningContent !== undefined) {
    if (role !== 'assistant') refuse(`${dotted(pointer)}: reasoningContent is only allowed in assistant messages`);
    const reasoning = expectObject(block.reasoningContent, `${pointer}/reasoningContent`);
    const text = expectObject(
      requiredMember(reasoning, 'reasoningText', `${pointer}/reasoningContent`),
      `${pointer}/reasoningContent/reasoningText`,
    );
    return {
      type: 'reasoning',
      text: expectString(
        requiredMember(text, 'text', `${pointer}/reasoningContent/reasoningText`),
        `${pointer}/reasoningContent/reasoningText/text`,
      ),
    };
  }
  if (block.cachePoint !== undefined) {
    cachePoint(block.cachePoint, `${pointer}/cachePoint`, scope);
    return null;
  }
  refuse(`${dotted(pointer)}: a content block must hold one of text, image, video, reasoningContent or cachePoint`);
}

function decodeSystem(raw: unknown, scope: Scope): Message | undefined {
  if (raw === undefined) return undefined;
  const parts: Part[] = [];
  expectArray(raw, '#/system').forEach((entry, i) => {
    const pointer = `#/system/${i}`;
    const block = expectObject(entry, pointer);
    onlyMembers(block, SYSTEM_MEMBERS, pointer);
    if (block.text !== undefined) parts.push({ type: 'text', text: expectString(block.text, `${pointer}/text`) });
    else if (block.cachePoint !== undefined) cachePoint(block.cachePoint, `${pointer}/cachePoint`, scope);
    else requiredMember(block, 'text', pointer);
  });
  return parts.length > 0 ? { role: 'system', parts } : undefined;
}

function decodeMessages(raw: unknown, scope: Scope): Message[] {
  const wire = expectLength(expectArray(raw, '#/messages'), '#/messages', AT_LEAST_ONE);
  return wire.map((entry, i) => {
    const pointer = `#/messages/${i}`;
    const m = expectObject(entry, pointer);
    onlyMembers(m, MESSAGE_MEMBERS, pointer);
    const role = expectEnum(requiredMember(m, 'role', pointer), ROLES, `${pointer}/role`);
    if (i === 0 && role !== 'user') refuse(FIRST_USER, 'messages');
    const content = expectLength(
      expectArray(requiredMember(m, 'content', pointer), `${pointer}/content`),
      `${pointer}/content`,
      AT_LEAST_ONE,
    );
    const parts: Part[] = [];
    content.forEach((block, j) => {
      const part = decodeBlock(block, `${pointer}/content/${j}`, role, scope);
      if (part) parts.push(part);
    });
    return { role, parts };
  });
}

function decodeInferenceConfig(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const pointer = '#/inferenceConfig';
  const config = expectObject(raw, pointer);
  onlyMembers(config, CONFIG_MEMBERS, pointer);
  let maxTokens: number | undefined;
  for (const key of ['maxTokens', 'max_new_tokens'] as const) {
    if (config[key] !== undefined) maxTokens ??= expectInteger(config[key], `${pointer}/${key}`, { min: 1, max: MOST_TOKENS });
  }
  if (config.temperature !== undefined) expectNumber(config.temperature, `${pointer}/temperature`, UNIT);
  for (const key of ['topP', 'top_p'] as const) if (config[key] !== undefined) expectNumber(config[key], `${pointer}/${key}`, UNIT);
  for (const key of ['topK', 'top_k'] as const) if (config[key] !== undefined) expectInteger(config[key], `${pointer}/${key}`, { min: 0 });
  if (config.stopSequences !== undefined) {
    expectArray(config.stopSequences, `${pointer}/stopSequences`).forEach((s, i) => expectString(s, `${pointer}/stopSequences/${i}`));
  }
  if (config.reasoningConfig !== undefined) {
    const reasoning = expectObject(config.reasoningConfig, `${pointer}/reasoningConfig`);
    onlyMembers(reasoning, REASONING_MEMBERS, `${pointer}/reasoningConfig`);
    if (reasoning.type !== undefined) expectEnum(reasoning.type, ['enabled', 'disabled'], `${pointer}/reasoningConfig/type`);
    if (reasoning.maxReasoningEffort !== undefined) {
      expectEnum(reasoning.maxReasoningEffort, ['low', 'medium', 'high'], `${pointer}/reasoningConfig/maxReasoningEffort`);
    }
  }
  return maxTokens;
}

export function decodeNovaBody(body: Record<string, unknown>, modelId: string): ChatRequest {
  onlyMembers(body, MEMBERS, '#');
  if (body.schemaVersion !== undefined) expectEnum(body.schemaVersion, ['messages-v1'], '#/schemaVersion');
  if (body.toolConfig !== undefined) refuseToolOption('toolConfig');
  const scope: Scope = { cachePoint: false };
  const system = decodeSystem(body.system, scope);
  const messages = decodeMessages(requiredMember(body, 'messages', '#'), scope);
  const maxOutputTokens = decodeInferenceConfig(body.inferenceConfig);
  return {
    model: modelId,
    messages: system ? [system, ...messages] : messages,
    tools: [],
    toolChoice: { type: 'auto' },
    parallelToolCalls: false,
    output: { type: 'text' },
    stream: false,
    streamUsage: false,
    maxOutputTokens,
    promptCaching: scope.cachePoint ? 'marked' : 'none',
  };
}
