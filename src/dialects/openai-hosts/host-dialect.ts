// A host's row of rules (host.ts) over one of the two OpenAI dialects, as a dialect of its own:
// OpenAI's decoder and encoders do the work, the host's rules run before and after them. A host's
// answers go through JSON.parse and JSON.stringify once more, and its streams are made whole
// before they are sent (a rule may drop or add events): the price of not copying the dialect,
// paid on host routes only.

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import type { ChatRequest, ResolvedReply } from '../../core/model.js';
import {
  arraySource,
  type ChatDialect,
  type DialectEncodeContext,
  type DialectRegistration,
  type EncodedBody,
  type InfoAsk,
  type InfoRouteSpec,
  type WireContext,
} from '../dialect.js';
import { getOpenAIModel, listOpenAIModels } from '../openai/models.js';
import { decodeChatRequest } from '../openai-chat/decode-request.js';
import { openaiChat } from '../openai-chat/index.js';
import { openaiResponses } from '../openai-responses/index.js';
import { isObject } from '../wire-kit/values.js';
import type { HostModels, HostOperation, JsonObject, OpenAIHost } from './host.js';

type Base = 'chat' | 'responses';

const BASES: Record<Base, { dialect: ChatDialect; operation: string }> = {
  chat: { dialect: openaiChat, operation: 'chat.completions' },
  responses: { dialect: openaiResponses, operation: 'responses' },
};

function decoder(base: Base, rules: HostOperation): ChatDialect['decode'] {
  const baseDecode = BASES[base].dialect.decode;
  const decodeBody =
    base === 'chat' && rules.fields ? (body: unknown, wire: WireContext) => decodeChatRequest(body, wire, rules.fields) : baseDecode;
  const decode: ChatDialect['decode'] = (body, wire) => {
    if (!isObject(body)) return baseDecode(body, wire);
    const prepared = rules.prepare ? rules.prepare(body, wire) : body;
    if (isNeutralError(prepared)) return prepared;
    const request = decodeBody(prepared, wire);
    if (isNeutralError(request) || !rules.finish) return request;
    return rules.finish(request, prepared as JsonObject, wire);
  };
  const refusal = rules.refusal;
  if (!refusal) return decode;
  return (body, wire) => {
    const request = decode(body, wire);
    return isNeutralError(request) ? refusal(request) : request;
  };
}

/** A stream event's `event:` name (Responses) and its data, and back. */
function parseEvent(framed: string): { name?: string; data: string } {
  let name: string | undefined;
  let data = '';
  for (const line of framed.split('\n')) {
    if (line.startsWith('event: ')) name = line.slice(7);
    else if (line.startsWith('data: ')) data = line.slice(6);
  }
  return { name, data };
}

function frame(data: JsonObject, name?: string): string {
  return `${name === undefined ? '' : `event: ${name}\n`}data: ${JSON.stringify(data)}\n\n`;
}

function asHostReply(reply: ResolvedReply, rules: HostOperation): ResolvedReply {
  // A copy without the shape, so the base encoder's per-shape caches keep OpenAI's encoding apart.
  return rules.wholeToolCalls && !reply.wholeToolCalls ? { ...reply, wholeToolCalls: true, shape: undefined } : reply;
}

function hostDialect(host: OpenAIHost, base: Base, rules: HostOperation): ChatDialect {
  const dialect = BASES[base].dialect;
  const encodeResponse = (reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): string => {
    const body = dialect.encodeResponse(reply, request, ctx);
    if (!rules.answer) return body;
    const answer = JSON.parse(body) as JsonObject;
    rules.answer(answer, reply, request, ctx);
    return JSON.stringify(answer);
  };
  const encodeStream: ChatDialect['encodeStream'] = (reply, request, ctx) => {
    const stream = dialect.encodeStream(asHostReply(reply, rules), request, ctx);
    if ((!rules.event && !rules.leadingEvents && rules.streamComment === undefined) || rules.rewritesStream?.(request) === false)
      return stream;
    const events = (rules.leadingEvents?.(reply, request, ctx) ?? []).map((data) => frame(data));
    if (rules.streamComment !== undefined) events.unshift(`: ${rules.streamComment}\n\n`);
    const count = stream.events.length;
    const touches = rules.touches;
    for (let index = 0; index < count; index++) {
      const framed = stream.events.at(index);
      if (touches && !touches(framed, { index, count })) {
        events.push(framed);
        continue;
      }
      const { name, data } = parseEvent(framed);
      if (!rules.event || !data.startsWith('{')) {
        events.push(framed);
        continue;
      }
      const parsed = JSON.parse(data) as JsonObject;
      const verdict = rules.event(parsed, { index, count }, reply, request, ctx);
      if (Array.isArray(verdict)) for (const sent of verdict as readonly JsonObject[]) events.push(frame(sent, name));
      else if (verdict !== false) events.push(frame(parsed, name));
    }
    return { contentType: stream.contentType, events: arraySource(events) };
  };
  const encodeError = host.encodeError ? (error: NeutralError) => host.encodeError!(error) : dialect.encodeError;
  return {
    ...dialect,
    id: `${dialect.id}@${host.id}`,
    decodeHeaders: rules.headers ? [...dialect.decodeHeaders, ...rules.headers] : dialect.decodeHeaders,
    decode: decoder(base, rules),
    encodeResponse,
    encodeStream,
    encodeError,
    ...(rules.streamError
      ? streamErrors(dialect, rules.streamError)
      : base === 'chat' && host.encodeError && chatStreamErrors(dialect, host.encodeError)),
  };
}

const DONE = 'data: [DONE]\n\n';

/** A failing stream (what OpenAI sends before its error event, then the host's) and a fault's
 * error event, with the host's own error event. */
function streamErrors(
  dialect: ChatDialect,
  streamError: NonNullable<HostOperation['streamError']>,
): Pick<ChatDialect, 'encodeStreamFailure' | 'encodeStreamErrorEvent'> {
  return {
    encodeStreamFailure(error, request, ctx) {
      const base = dialect.encodeStreamFailure(error, request, ctx);
      return { contentType: base.contentType, events: [...base.events.slice(0, -1), frame(streamError(error, ctx)), DONE] };
    },
    encodeStreamErrorEvent: (error, ctx) => frame(streamError(error, ctx)) + DONE,
  };
}

/** A Chat Completions stream's error chunk is the error body itself: the host's, when it has one. */
function chatStreamErrors(
  dialect: ChatDialect,
  encodeError: (error: NeutralError) => EncodedBody,
): Pick<ChatDialect, 'encodeStreamFailure' | 'encodeStreamErrorEvent'> {
  const errorEvent = (error: NeutralError) => `data: ${encodeError(error).body}\n\n`;
  return {
    encodeStreamErrorEvent: errorEvent,
    encodeStreamFailure(error, request, ctx) {
      const failure = dialect.encodeStreamFailure(error, request, ctx);
      return { contentType: failure.contentType, events: [...failure.events.slice(0, -1), errorEvent(error)] };
    },
  };
}

/** The routes, operations and base URLs of a host, for the registry. */
export function hostRegistration(host: OpenAIHost): DialectRegistration {
  const routes: DialectRegistration['routes'] = [];
  for (const base of ['chat', 'responses'] as const) {
    const rules = host[base];
    if (!rules) continue;
    const dialect = hostDialect(host, base, rules);
    const operation = `${host.id}.${BASES[base].operation}`;
    for (const path of rules.paths) routes.push({ method: 'POST', path, operation, dialect });
  }
  return { routes, providerPaths: host.providerPaths, ...(host.models && { infoRoutes: modelRoutes(host, host.models) }) };
}

/** `GET {path}` and `GET {path}/{model}` for each of the host's model-list paths. */
function modelRoutes(host: OpenAIHost, models: HostModels): InfoRouteSpec[] {
  const dialect = hostDialect(host, 'chat', host.chat ?? { paths: [] });
  const options = { ...models, ...(host.encodeError && { encodeError: host.encodeError }) };
  return models.paths.flatMap((path): InfoRouteSpec[] => [
    { method: 'GET', path, dialect, answer: (ask) => listOpenAIModels(ask, options) },
    ...(models.listOnly
      ? []
      : [{ method: 'GET' as const, path: `${path}/{model}`, dialect, answer: (ask: InfoAsk) => getOpenAIModel(ask, options) }]),
  ]);
}
