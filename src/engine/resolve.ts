// Turns a scripted Reply into what a dialect encodes: ids assigned, content and chunks decided,
// usage counted (or, for the fields its `usage` gives, scripted).

import type {
  ChatRequest,
  Reply,
  ReplyImage,
  ResolvedCitation,
  ResolvedImage,
  ResolvedReply,
  ScriptedCitation,
  Usage,
} from '../core/model.js';
import { imageKindOf } from '../core/scripted-image.js';
import { EVENT_WEIGHT, LARGE_REPLY_WEIGHT, wordPieces } from '../core/stream-pieces.js';
import { countInputTokens, countOutputTokens } from '../core/tokens.js';

/** Splits text into word-sized pieces that keep their whitespace, for default streaming (runs of
 * whole words past STREAM_PIECES words). */
export function defaultChunks(text: string): string[] {
  return wordPieces(text);
}

/** Whether a reply's stream is too heavy to be made and written as one string. */
function isLarge(parts: Omit<StaticParts, 'large'>): boolean {
  let weight = (parts.content?.length ?? 0) + (parts.reasoning?.length ?? 0) + parts.chunks.length * EVENT_WEIGHT;
  for (const call of parts.toolCalls) weight += call.argumentsText.length;
  return weight > LARGE_REPLY_WEIGHT;
}

export function replyContent(reply: Reply): string | null {
  if (reply.text !== undefined) return reply.text;
  if (reply.json !== undefined) return JSON.stringify(reply.json);
  return null;
}

const NONE: never[] = [];

/** Each citation at the first occurrence of its text after the previous one's; one whose text is
 * not there (fixture validation refuses such a script) is left out. */
export function placeCitations(content: string, citations: ScriptedCitation[]): ResolvedCitation[] {
  const placed: ResolvedCitation[] = [];
  let from = 0;
  let codePoints = 0;
  for (const citation of citations) {
    const at = citation.text === '' ? -1 : content.indexOf(citation.text, from);
    if (at < 0) continue;
    codePoints += [...content.slice(from, at)].length;
    const length = [...citation.text].length;
    placed.push({ start: codePoints, end: codePoints + length, text: citation.text, sources: citation.sources ?? [] });
    codePoints += length;
    from = at + citation.text.length;
  }
  return placed;
}

type StaticParts = Omit<ResolvedReply, 'usage'>;

/** Where generated tool-call ids come from (a Session is one). */
export interface IdSource {
  nextId(): string;
}

// Scripted replies whose tool calls all carry ids resolve to the same parts every time: build
// them once per reply (and per streaming or not), share them read-only, and let dialects cache
// their encoding under the same identity (`ResolvedReply.shape`).
const staticParts = new WeakMap<Reply, { json?: StaticParts; stream?: StaticParts }>();

/** Most counter characters a short id keeps: enough for every call a session's ledger holds. */
const SHORT_ID_COUNTER = 6;

/** `call_` and a session id; or, where the wire's ids are `length` letters and digits, the id's
 * first characters (seed-derived) and its last (the counter), so short ids stay unique in a session. */
function generatedCallId(ids: IdSource, length: number | undefined): string {
  const id = ids.nextId();
  if (length === undefined) return `call_${id}`;
  const counter = Math.min(length, SHORT_ID_COUNTER);
  return id.slice(0, length - counter) + id.slice(id.length - counter);
}

function buildParts(reply: Reply, stream: boolean, ids: IdSource, wholeToolCalls: boolean, idLength?: number): StaticParts {
  const content = replyContent(reply);
  const toolCalls = reply.toolCalls?.length
    ? reply.toolCalls.map((call) => ({
        id: call.id ?? generatedCallId(ids, idLength),
        name: call.name,
        argumentsText: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
        ...(call.id === undefined && { generatedId: true }),
      }))
    : NONE;
  const parts: StaticParts = {
    content,
    chunks: reply.chunks ?? (content === null || !stream ? NONE : defaultChunks(content)),
    toolCalls,
    reasoning: reply.reasoning ?? null,
    ...(reply.citations?.length && content !== null && { citations: placeCitations(content, reply.citations) }),
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    wholeToolCalls,
    shape: undefined,
  };
  if (reply.hostFields !== undefined) parts.hostFields = reply.hostFields;
  if (reply.images?.length) parts.images = reply.images.map(resolvedImage);
  if (isLarge(parts)) parts.large = true;
  return parts;
}

const MEDIA_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/** Scripted bytes with their media type (the fixture's rules hold them to PNG, JPEG or WebP), or
 * the default picture, a PNG the dialect draws. */
function resolvedImage(image: ReplyImage): ResolvedImage {
  if (image.b64 === undefined) return { mimeType: 'image/png' };
  const b64 = image.b64.replace(/\s+/g, '');
  const kind = imageKindOf(Buffer.from(b64.slice(0, 24), 'base64'));
  return { b64, mimeType: MEDIA_TYPES[kind ?? 'png'] };
}

/** Output tokens of one generated image: Google's published count for a Gemini image model's
 * 1024x1024 output, used for every size (a choice: docs/images.md). */
export const IMAGE_OUTPUT_TOKENS = 1290;

function partsFor(reply: Reply, stream: boolean, ids: IdSource, wholeToolCalls: boolean, idLength?: number): StaticParts {
  const fixedIds = !reply.toolCalls || reply.toolCalls.every((call) => call.id !== undefined);
  if (!fixedIds || wholeToolCalls) return buildParts(reply, stream, ids, wholeToolCalls, idLength);
  let cached = staticParts.get(reply);
  if (!cached) staticParts.set(reply, (cached = {}));
  const key = stream ? 'stream' : 'json';
  let parts = cached[key];
  if (!parts) {
    parts = buildParts(reply, stream, ids, false);
    parts.shape = parts;
    cached[key] = parts;
  }
  return parts;
}

export function resolveReply(reply: Reply, request: ChatRequest, ids: IdSource, wholeToolCalls = false): ResolvedReply {
  const parts = partsFor(reply, request.stream, ids, wholeToolCalls, request.toolCallIdLength);
  const scripted = reply.usage;
  const usage: Usage = {
    inputTokens: scripted?.inputTokens ?? countInputTokens(request),
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: scripted?.reasoningTokens ?? reply.reasoningTokens ?? 0,
  };
  if (scripted && scriptsCache(scripted)) {
    usage.cachedInputTokens = scripted.cachedInputTokens ?? 0;
    if (scripted.cacheWriteTokens !== undefined) usage.cacheWriteTokens = scripted.cacheWriteTokens;
  }
  const resolved: ResolvedReply = {
    content: parts.content,
    chunks: parts.chunks,
    toolCalls: parts.toolCalls,
    reasoning: parts.reasoning,
    ...(parts.citations && { citations: parts.citations }),
    finishReason: parts.finishReason,
    wholeToolCalls: parts.wholeToolCalls,
    shape: parts.shape,
    usage,
  };
  if (parts.hostFields !== undefined) resolved.hostFields = parts.hostFields;
  if (parts.large) resolved.large = true;
  if (parts.images) resolved.images = parts.images;
  usage.outputTokens =
    scripted?.outputTokens ?? countOutputTokens(resolved) + (parts.images ? IMAGE_OUTPUT_TOKENS * parts.images.length : 0);
  return resolved;
}

/** Whether a script's usage gives the prompt-cache counts (either of them gives both: the
 * session's prompt cache then leaves them alone). */
export function scriptsCache(usage: Partial<Usage>): boolean {
  return usage.cachedInputTokens !== undefined || usage.cacheWriteTokens !== undefined;
}

/** The resolved reply a scripted step gives, with this usage, when its parts are fixed (no
 * generated tool-call ids): what another process answered with, rebuilt from our copy of the step. */
export function resolveStatic(reply: Reply, stream: boolean, usage: ResolvedReply['usage']): ResolvedReply | undefined {
  if (reply.toolCalls?.some((call) => call.id === undefined)) return undefined;
  return { ...partsFor(reply, stream, noIds, false), usage };
}

const noIds: IdSource = {
  nextId() {
    throw new Error('a reply with fixed tool-call ids needs no generated id');
  },
};
