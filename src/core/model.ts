// Provider-neutral records. Dialects decode wire bodies into these and encode replies out of them;
// nothing here names a wire field of any provider.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonSchema = { [key: string]: unknown } | boolean;

export type Role = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

export interface TextPart {
  type: 'text';
  text: string;
}
export interface ImagePart {
  type: 'image';
  /** A URL or a data: URL, as the client sent it. */
  url: string;
  mediaType?: string;
}
export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  /** The arguments as sent (a JSON string on most wires). */
  argumentsText: string;
  /** Parsed arguments, or undefined when argumentsText is not valid JSON. */
  arguments: JsonValue | undefined;
  /** Set when the wire carried no id and the decoder made this one from the call's place: nothing
   * the application sent, so a recording's conditions leave it out. */
  idMade?: true;
}
export interface ToolResultPart {
  type: 'tool_result';
  callId: string;
  /** Tool name, resolved from the call with the same id earlier in the history when the wire omits it. */
  name: string | undefined;
  /** The result as text (parts joined). */
  content: string;
  isError: boolean;
  /** Set when the wire named no call id: the decoder found the call by its name or place. */
  callIdMade?: true;
}
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
}
export type Part = TextPart | ImagePart | ToolCallPart | ToolResultPart | ReasoningPart;

export interface Message {
  role: Role;
  parts: Part[];
}

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object, as declared (draft-07 or 2020-12). */
  parameters: JsonSchema;
  strict?: boolean;
}

export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'named'; name: string };

export type OutputFormat =
  { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; name?: string; schema: JsonSchema; strict?: boolean };

export interface ChatRequest {
  model: string;
  messages: Message[];
  tools: ToolDefinition[];
  toolChoice: ToolChoice;
  /** Whether a reply may carry two or more tool calls. */
  parallelToolCalls: boolean;
  output: OutputFormat;
  stream: boolean;
  /** The dialect asked for a usage record at the end of the stream. */
  streamUsage: boolean;
  maxOutputTokens?: number;
  /** The client's retry attempt (0 = first try) when its SDK says so in a header. */
  attempt?: number;
  /** Documents the request grounds its answer in (Cohere's `documents`), by id; a citation's
   * sources name them. Absent when the request sent none. */
  documents?: GroundingDocument[];
  /** How the provider caches prompts: automatically by prefix (OpenAI, Gemini, DeepSeek — the
   * default), only where the request marks it (Anthropic `cache_control`), or not at all. */
  promptCaching?: 'automatic' | 'marked' | 'none';
  /** The provider's tool call ids are exactly this many letters and digits (Mistral's nine): the
   * ids Understudy makes for calls a script names none for take that form. */
  toolCallIdLength?: number;
  /** Set when the request asks for images in the answer (Gemini's `responseModalities` with
   * `IMAGE`): the size of the pictures, and whether text may come beside them. */
  imageOutput?: ImageOutput;
}

export interface ImageOutput {
  width: number;
  height: number;
  /** The request asked for TEXT too. */
  text: boolean;
}

/** A document a request sent for the answer to draw on: its id and its fields as sent. */
export interface GroundingDocument {
  id: string;
  fields: Record<string, unknown>;
}

// ---------- replies (what a script says) ----------

export interface ScriptedToolCall {
  /** Call id; assigned from the session counter when omitted. */
  id?: string;
  name: string;
  /** An object (serialised compactly) or a string sent verbatim. */
  arguments?: JsonValue;
}

export interface ScriptedError {
  status: number;
  /** Provider error code/type when the dialect has one (e.g. rate_limit_exceeded). */
  code?: string;
  type?: string;
  message: string;
  headers?: Record<string, string>;
  /** On a streaming request: answer 200 and fail inside the stream with the dialect's error event. */
  inStream?: boolean;
  /** Members added to the provider's error object beside its message, type and code (e.g. Groq's
   * `failed_generation`); members of those names are ignored. */
  extra?: Record<string, JsonValue>;
}

/** How a session's streams look on hosts that have a flavour of their own: `plain` is the
 * dialect's stream; `azure` adds, on Azure and Foundry Chat Completions routes, Azure's leading
 * prompt-filter chunk (empty `choices`) and a content-filter chunk without `delta`. */
export type StreamFlavour = 'plain' | 'azure';

/** How an answer that is not a chat reply goes out (embeddings, images, audio, video jobs), as a
 * fixture scripted it: a delay before it, its pacing, a fault part-way through it. */
export interface AnswerAct {
  delayMs?: number;
  pacing?: Pacing;
  fault?: StreamFault;
}

/** How a streamed reply is paced. Zero delay unless set. */
export interface Pacing {
  /** Milliseconds before the first event is written (headers go out at once). */
  ttftMs?: number;
  /** Events per second after the first. */
  chunksPerSecond?: number;
  /** Each gap varies by up to ± this many ms, from a generator seeded by the session, so the
   * same session and request give the same timings. */
  jitterMs?: number;
}

export type FaultKind = 'error' | 'truncate' | 'malformed' | 'stall' | 'reset' | 'close';

/** A failure in the middle of the answer, after some of it was written. */
export interface StreamFault {
  /** error: the dialect's in-stream error event, then end; truncate: end the response without
   * its terminal event; malformed: a broken event, then end; stall: write nothing more until the
   * client gives up; reset: TCP reset; close: close the connection without ending the response. */
  kind: FaultKind;
  /** Events written before the fault (streams), default 1. */
  afterChunks?: number;
  /** Or: bytes of the body written before the fault (JSON answers and streams). */
  afterBytes?: number;
  /** For kind `error`: the error the event carries (default 500 "Internal error"). */
  error?: { status?: number; message?: string; code?: string; type?: string };
}

/** Injected chaos for load tests without scripts (per session; request headers add to it). */
export interface ChaosOptions {
  /** Answer every request with this HTTP status (provider-shaped error body). */
  status?: number;
  /** Added latency in ms before answering, and its jitter in percent of it. */
  latencyMs?: number;
  jitterPct?: number;
  /** Percent (0–100) of requests answered with a provider-shaped 500. */
  dropPct?: number;
  /** Percent of answers whose body is deliberately not valid JSON. */
  malformedPct?: number;
  /** Delay between stream events, in ms. */
  trickleMs?: number;
  /** Percent of streams cut mid-answer. */
  disconnectPct?: number;
  /** After this many provider requests in the session, answer 429 (with retry-after). */
  rateLimitAfter?: number;
  /** Requests whose latest user message contains one of these terms get the content-filter error. */
  contentFilter?: string[];
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** A span of the reply's text that cites sources the request sent (documents, tool results). */
export interface ScriptedCitation {
  /** The cited words: they must occur in the reply's text, after the previous citation's. */
  text: string;
  /** Ids of the cited sources, as the request named them (a document's id, a tool call's id). */
  sources?: string[];
}

/** A citation placed in the reply's text: `start` and `end` count characters (code points). */
export interface ResolvedCitation {
  start: number;
  end: number;
  text: string;
  sources: string[];
}

export interface Reply {
  text?: string;
  /** Structured content; serialised compactly as the message text. */
  json?: JsonValue;
  toolCalls?: ScriptedToolCall[];
  reasoning?: string;
  /** Stream chunks of the content; must concatenate exactly to it. */
  chunks?: string[];
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  error?: ScriptedError;
  finishReason?: FinishReason;
  /** Extra reasoning tokens to report (for reasoning models). */
  reasoningTokens?: number;
  /** Token counts reported instead of the counted ones (a recording's); each field left out is counted. */
  usage?: Partial<Usage>;
  /** Spans of the text that cite sources, for dialects that answer citations (Cohere). */
  citations?: ScriptedCitation[];
  /** Pacing of a streamed answer (overrides the session's). */
  pacing?: Pacing;
  /** A failure part-way through the answer. */
  fault?: StreamFault;
  /** Members a host of a dialect adds to its answer (Perplexity's `citations`, `search_results`;
   * OpenRouter's `provider`); dialects and hosts without such members leave them out. */
  hostFields?: Record<string, JsonValue>;
  /** Images the answer carries beside its text (Gemini's image output parts), for a request that
   * asks for image output; each scripted bytes (base64 PNG, JPEG or WebP) or, without `b64`, the
   * dialect's default picture. */
  images?: ReplyImage[];
}

export interface ReplyImage {
  b64?: string;
}

/** An image of a resolved reply: its base64 bytes and media type, or none for the default picture. */
export interface ResolvedImage {
  b64?: string;
  mimeType: string;
}

/** A reply made ready for a dialect: ids assigned, content resolved, usage counted. */
export interface ResolvedToolCall {
  id: string;
  name: string;
  argumentsText: string;
  /** True when Understudy assigned the id because the script gave none (wires whose calls
   * usually carry no id, like Gemini's, then leave it out). */
  generatedId?: boolean;
}
export interface ResolvedReply {
  content: string | null;
  chunks: string[];
  toolCalls: ResolvedToolCall[];
  reasoning: string | null;
  /** The reply's citations placed in its text; absent when it has none. */
  citations?: ResolvedCitation[];
  finishReason: FinishReason;
  usage: Usage;
  /** Stream each tool call as one whole frame instead of argument fragments (zero-config answers). */
  wholeToolCalls: boolean;
  /** Identity shared by every resolution of the same scripted reply (absent when ids were
   * generated): dialects may cache encodings of the parts above under it. Read-only. */
  shape: object | undefined;
  /** The script's host answer members (Reply.hostFields), shared read-only. */
  hostFields?: Readonly<Record<string, JsonValue>>;
  /** The reply's images (Reply.images), shared read-only; absent when it has none. */
  images?: readonly ResolvedImage[];
  /** True when the reply is too heavy to stream as one string (core/stream-pieces.ts,
   * LARGE_REPLY_WEIGHT): the transport writes it event by event, with backpressure. */
  large?: boolean;
}

export interface Usage {
  /** The whole prompt, cached part included. */
  inputTokens: number;
  outputTokens: number;
  /** The part of the prompt read from the prompt cache. */
  cachedInputTokens: number;
  reasoningTokens: number;
  /** The part of the prompt written to the prompt cache (providers that report it: Anthropic). */
  cacheWriteTokens?: number;
}

/** Per-request values a dialect needs to make deterministic bytes. */
export interface EncodeContext {
  /** Response id, unique in the session, deterministic. */
  responseId: string;
  /** Seconds since the epoch, from the session clock. */
  created: number;
  model: string;
  requestId: string;
}
