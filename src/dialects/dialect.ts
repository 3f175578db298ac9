// What a wire dialect provides. A dialect decodes wire bodies to the neutral request, encodes
// resolved replies and neutral errors back to its wire, and knows nothing of scripts or sessions
// beyond the narrow per-session storage below.

import type { IncomingHttpHeaders } from 'node:http';
import type { NeutralError } from '../core/errors.js';
import type { AnswerAct, ChatRequest, EncodeContext, Pacing, ResolvedReply, StreamFlavour, Usage } from '../core/model.js';
import type { ScriptedSpeech, ScriptedTranscript, SpeechAsk, TranscriptAsk } from '../core/scripted-audio.js';
import type { ScriptedImage } from '../core/scripted-image.js';
import type { VideoJobStore, VideoScript } from '../core/video-jobs.js';
import type { RecordedAnswer } from './wire-kit/recorded-answer.js';

export interface EncodedBody {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface StreamEncoding {
  contentType: string;
  /** Wire events in order, each already framed (e.g. "data: {...}\n\n"). */
  events: string[];
}

/** A stream's events, made one at a time as paced delivery sends them, so a stream held open for
 * seconds keeps no copy of what it already sent (nor of what it has yet to send). */
export interface EventSource {
  readonly length: number;
  at(index: number): string;
  /** The same events as UTF-8 bytes, for a writer that frames each into a buffer of its own:
   * copied from parts encoded once, without building the event's string. */
  readonly bytes?: EventBytes;
}

export interface EventBytes {
  /** Byte length of event `index` (of `at(index)` encoded as UTF-8). */
  sizeAt(index: number): number;
  /** Writes event `index`'s bytes into `target` from `offset`. */
  copyAt(index: number, target: Buffer, offset: number): void;
}

/** An array of events as a source that lets go of each event once it was taken. */
export function arraySource(events: string[]): EventSource {
  return {
    length: events.length,
    at(index) {
      const event = events[index];
      events[index] = '';
      return event;
    },
  };
}

/** A whole unpaced stream as one body: the events joined, or the same bytes built cheaper. */
export interface StreamBody extends AnswerBytes {
  contentType: string;
}

/** A whole answer's bytes: a Buffer, or a string written as UTF-8 — or, with `encoding: 'latin1'`,
 * as latin1 (one byte per character: small templated answers, which node:http then sends with the
 * header in one string write). */
export interface AnswerBytes {
  body: string | Buffer;
  encoding?: 'latin1';
  /** Called with the response that sends the body, right after it was given the body: the
   * dialect may reuse the bytes once that response has flushed them (see Flushable). */
  sentBy?: (by: Flushable) => void;
}

/** What a recycled body needs to know of the response sending it (a ServerResponse is one). */
export interface Flushable {
  /** Every byte handed to the kernel. */
  readonly writableFinished: boolean;
  /** Torn down: what it had not sent is dropped. */
  readonly destroyed: boolean;
}

/** Per-session state a dialect may keep (e.g. stored responses); cleared when the session resets. */
export interface DialectState {
  /** The dialect's own store in this session, created on first use. */
  store<T>(name: string, create: () => T): T;
  /** Session id, for error messages. */
  readonly sessionId: string;
  /** True while the session answers unmatched requests in zero-config mode (fallback `auto`). */
  zeroConfig?(): boolean;
  /** The session's stream flavour (SessionOptions.streamFlavour); `plain` when left out. */
  streamFlavour?(): StreamFlavour;
  /** The session's model catalogue (SessionOptions.models); undefined when it has none. */
  models?(): readonly string[] | undefined;
  /** The vector (or the error) the session's fixture scripts for an embedding input (and model);
   * undefined when none does and the dialect derives one (core/embedding-vectors.ts). */
  scriptedVector?(text: string, model: string): Float32Array | NeutralError | undefined;
  /** The delay and fault the fixture scripts for an embedding request: those of the first input
   * (in the request's order) whose scripted entry sets any; undefined when none does. */
  embeddingAct?(texts: readonly string[], model: string): AnswerAct | undefined;
  /** What the session's fixture scripts for an image prompt (and model); undefined when none does
   * and the route draws its default picture. */
  scriptedImage?(prompt: string, model: string): ScriptedImage | undefined;
  /** What the session's fixture scripts for a speech request (its `speech` list); undefined when
   * nothing matches and the route answers derived silence. */
  scriptedSpeech?(ask: SpeechAsk): ScriptedSpeech | undefined;
  /** What the fixture scripts for a transcription's file (its `transcriptions` list). */
  scriptedTranscript?(ask: TranscriptAsk): ScriptedTranscript | undefined;
  /** The session's video jobs (one store for every provider's video routes). */
  videoJobs?(): VideoJobStore;
  /** What the session's fixture scripts for a video job of this prompt (and model); undefined
   * when none does and the job runs the default timeline. */
  scriptedVideo?(prompt: string, model: string): VideoScript | undefined;
}

/** What the route and the HTTP request say besides the body. */
export interface WireContext {
  /** Operation id of the route, e.g. "gemini.streamGenerateContent". */
  operation: string;
  /** Path parameters of the route pattern, decoded (e.g. { model: "gemini-2.5-flash" }). */
  params: Record<string, string>;
  /** Query parameters; empty when the URL has none. */
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  state: DialectState;
}

export interface DialectEncodeContext extends EncodeContext {
  wire: WireContext;
  /** The pacing the answer is written with, when it is paced (a paced answer is never built from a
   * byte template, so an encoder may read it: Ollama reports its durations from it). */
  pacing?: Pacing;
}

/** A stream's content type and its events, each framed (e.g. "data: {...}\n\n"), made as they are
 * taken: a stream held open for seconds, or a large one, keeps no copy of what it sent. */
export interface StreamEvents {
  contentType: string;
  events: EventSource;
}

/**
 * A wire dialect is a codec: decode (wire → neutral request, or a neutral wire error), encode (a
 * reply as one JSON body, and as a sequence of stream events), its error shapes, and the headers
 * its decode reads. Whatever makes answers fast — byte templates of repeated answers, recycled
 * buffers, latin1 small bodies, paced framing — is derived from these in src/transport
 * (answer-bytes.ts), so a new dialect gets it without writing it (docs/dialects/README.md).
 *
 * The encoders are pure functions of their arguments: the reply, the decoded request and the
 * context. They read nothing else (no clock, no session), since answers to a repeated request are
 * built from a template of an earlier one.
 */
export interface ChatDialect {
  readonly id: string;
  /** Prefix of response ids (e.g. "chatcmpl-"). */
  readonly idPrefix: string;
  /** The request headers `decode` reads (lower case); a decode is given only these (decision 0005). */
  readonly decodeHeaders: readonly string[];
  /** Checks and decodes the parsed JSON body; a wire error comes back in neutral form. */
  decode(body: unknown, wire: WireContext): ChatRequest | NeutralError;
  /** Whether the request asked for a stream, from its route and its body as parsed (undefined when
   * it was not JSON): the journal records it for a request refused before it was decoded. */
  requestedStream(body: unknown, wire: WireContext): boolean;
  /** A reply as one JSON body. */
  encodeResponse(reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): string;
  /** A reply as a stream of events. */
  encodeStream(reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): StreamEvents;
  /** An HTTP error in the provider's shape. */
  encodeError(error: NeutralError, ctx: { requestId: string; wire?: WireContext }): EncodedBody;
  /** The whole body of a stream that fails: whatever the provider sends before its in-stream
   * error event, then that event (e.g. OpenAI Chat's `data: {"error":…}` chunk). */
  encodeStreamFailure(error: NeutralError, request: ChatRequest, ctx: DialectEncodeContext): StreamEncoding;
  /** The provider's in-stream error event alone (framed), written when a scripted fault of kind
   * `error` interrupts a stream part-way. */
  encodeStreamErrorEvent(error: NeutralError, ctx: DialectEncodeContext, eventsSent: number): string;
  /** Called once a reply was delivered (e.g. to store a response for later continuation). */
  delivered?(reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): void;
  /** True when decoding reads session state (e.g. a stored conversation): the journal then keeps
   * the decoded request instead of decoding the body again when it is read. */
  readonly statefulDecode?: boolean;
  /** Extra response headers for successful answers (e.g. request-id headers a provider sends);
   * `reply` is the answer's, absent for a stream that fails inside (Bedrock's InvokeModel reports
   * the answer's token counts in headers). */
  responseHeaders?(ctx: DialectEncodeContext, reply?: ResolvedReply): Record<string, string>;
  /** Set when the dialect's stream events are binary frames (Bedrock's event stream), not text. */
  readonly binaryStream?: BinaryStream;
  /** Reads this provider's answer back into neutral terms, the inverse of the encoders (record
   * mode, decision 0017): `json` a parsed JSON body, `stream` a whole stream's text (latin1, one
   * character per byte, for a binary stream). A string says why the answer could not be read. */
  readonly readAnswer?: AnswerReader;
}

export interface AnswerReader {
  json(body: unknown): RecordedAnswer | string;
  stream(text: string): RecordedAnswer | string;
}

/** How a dialect with binary stream events has them written: every event (and the in-stream error
 * event) is a latin1 string, one character per byte, and is written with that encoding. Such
 * streams get no byte template (a frame's checksum covers its whole message). */
export interface BinaryStream {
  /** What the `malformed` fault writes: bytes the client's decoder must refuse (e.g. a frame whose
   * checksum does not match), since an SSE line means nothing to a binary decoder. */
  readonly malformedFrame: string;
}

/** A provider route. `path` may hold `{name}` segments, e.g. `/v1beta/models/{model}:generateContent`. */
export interface RouteSpec {
  method: 'POST';
  path: string;
  operation: string;
  dialect: ChatDialect;
  /** An info route that answers the request instead, decided by the path's parameters (Bedrock's
   * InvokeModel path serves chat and embedding models alike); asked only of this route's requests. */
  divert?(params: Readonly<Record<string, string>>): InfoRouteSpec | undefined;
}

/** What a dialect folder registers: its routes and the base URLs SDKs should be given. */
export interface DialectRegistration {
  routes: RouteSpec[];
  /** Provider name → path to append to the server's origin for that SDK's base URL. */
  providerPaths: Record<string, string>;
  /** Routes answered from what the session knows rather than from a script (InfoRouteSpec). */
  infoRoutes?: InfoRouteSpec[];
}

/** A route that answers from the session's dialect state, not from a chat script: no chat decode,
 * no engine (Ollama's model list and model details; token counts; embeddings, images, audio and
 * video jobs). It is looked up only for a path no chat route matched, so chat requests pay nothing
 * for it. Under a session prefix too. `path` may hold `{name}` segments, as a RouteSpec's. */
export interface InfoRouteSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** Whose error shape the route's refusals (an unknown session, a missing key) take. */
  dialect: ChatDialect;
  /** `bytes`: the body is read as raw bytes (a multipart upload) and given as `ask.bytes`; `ask.text`
   * is then '' and `ask.body` undefined. By default the body is read as UTF-8 text and parsed. */
  bodyAs?: 'bytes';
  answer(ask: InfoAsk): InfoAnswer | Promise<InfoAnswer>;
  /** Set for a route that reads or changes what the session stores (video jobs, images kept for
   * their URLs): under --workers its requests go to the session's owner, where the store lives;
   * the others are answered by any worker from the session's scripts. */
  stateful?: boolean;
  /** Set for an operation the journal records (embeddings, images, audio, videos): each request
   * becomes an entry with this operation id and what the answer's `journal` says. */
  journalAs?: string;
  /** Another info route that answers the request instead, decided by the path's parameters
   * (Vertex's `:predict` serves embedding and Imagen models alike). */
  divert?(params: Readonly<Record<string, string>>): InfoRouteSpec | undefined;
}

/** How an info answer goes out, as a fixture scripted it for the request: a delay before it (a
 * client that leaves during it changes nothing: 499), pacing of its events (or of its one body),
 * a fault part-way (reset, close, stall, truncate, malformed; `error` writes the answer's
 * `errorEvent`). */
export type InfoAct = AnswerAct;

/** An info route's answer; `journal` is read only on a route with `journalAs`. */
export interface InfoAnswer {
  status: number;
  headers: Record<string, string>;
  /** Text (sent as UTF-8) or bytes (audio, an image, a video); unread when `events` is set. */
  body: string | Uint8Array;
  /** An event stream instead of one body: each item one framed event (e.g. "data: {...}\n\n"). */
  events?: readonly string[];
  /** For a fault of kind `error` in a stream: the provider's in-stream error event. */
  errorEvent?: string;
  act?: InfoAct;
  /** Runs once the answer was handed to the client, never when the client left first (during a
   * delay): what the request changes in the session (a stored job) belongs here, so that a request
   * that was not answered changes nothing. */
  onDelivered?(): void;
  /** Runs instead when the answer did not reach the client (it left during the delay, or a fault
   * cut the answer short): a place reserved for the answer's effect is given back here. */
  onUndelivered?(): void;
  journal?: {
    /** The request in neutral form (embeddings: each input a user message). */
    request?: ChatRequest;
    usage?: Usage;
    /** The refusal answered, for the entry's error. */
    error?: NeutralError;
  };
}

export interface InfoAsk {
  /** The body parsed as JSON; undefined when there is none, it is not JSON, or the route reads
   * bytes. */
  body: unknown;
  /** The body as sent ('' for none, and on a route that reads bytes). */
  text: string;
  /** The body's bytes, on a route with `bodyAs: 'bytes'`. */
  bytes?: Buffer;
  state: DialectState;
  /** Seconds since the epoch, from the session clock. */
  clock: number;
  /** The route's path parameters, decoded (for a path with `{name}` segments). */
  params?: Record<string, string>;
  /** The URL's query (Azure's `api-version`); empty when it has none. */
  query?: URLSearchParams;
  /** The request's id, for a provider whose answers carry it in a header. */
  requestId?: string;
  /** The request's headers, for a route that reads one (Anthropic's `anthropic-version`). */
  headers?: IncomingHttpHeaders;
}

/** requestedStream for a dialect whose body says `"stream": true`. */
export function streamInBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}
