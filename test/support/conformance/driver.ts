// What the conformance suite (test/conformance.test.ts) needs from each dialect's official SDK: a
// driver makes the client, sends a neutral question in the SDK's own terms, and reads the answer
// back in neutral terms. One file per dialect folder in this directory, listed in ./index.ts.

/** A JSON answer, or a streamed one read through the SDK's streaming interface. */
export type Mode = 'json' | 'stream';

/** What a question may ask for that not every provider offers. */
export type Feature = 'tools' | 'structured output' | 'tool choice by name';

/** The features a question asks for. */
export function featuresOf(question: Question): Feature[] {
  return [
    ...(question.tools ? (['tools'] as const) : []),
    ...(question.schema ? (['structured output'] as const) : []),
    ...(question.toolChoice ? (['tool choice by name'] as const) : []),
  ];
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object, sent as the wire's JSON Schema field. */
  parameters: Record<string, unknown>;
}

/** What to ask, in neutral terms; the driver turns it into the SDK's parameters. */
export interface Question {
  prompt: string;
  tools?: ToolSpec[];
  /** The answer must call this one of the declared tools. */
  toolChoice?: { name: string };
  /** Structured output: the answer must be JSON valid against this schema. */
  schema?: { name: string; schema: Record<string, unknown> };
  /** After the prompt: the assistant's call of a tool, then the tool's result answering it. */
  toolResult?: { id: string; name: string; arguments: Record<string, unknown>; result: string };
  /** Add one field of the wrong type (a string where the wire wants a number, e.g. temperature),
   * which the provider refuses with its 400 before anything is answered. */
  malformed?: boolean;
}

export interface ToolCallSeen {
  /** Undefined when the wire does not carry an id back (ConformanceDriver.toolCallIds false). */
  id: string | undefined;
  name: string;
  arguments: unknown;
}

/** What the SDK handed back. */
export interface Answer {
  text: string;
  toolCalls: ToolCallSeen[];
  /** Text deltas the SDK's stream delivered (0 for a JSON answer). */
  textDeltas: number;
  /** The finish / stop reason as the SDK reports it; undefined when the answer carries none. */
  finish: string | undefined;
  /** Token usage as the SDK reports it (prompt, and answer); undefined when the answer has none. */
  usage: { input: number; output: number } | undefined;
  /** The request id the SDK read from the answer's headers; undefined where it exposes none. */
  requestId: string | undefined;
}

/** An error the SDK threw (or, for a stream, an error event it reported), in neutral terms. */
export interface ErrorSeen {
  /** The SDK's own API error class (status and parsed body), as opposed to a connection failure. */
  api: boolean;
  status: number | undefined;
  /** The provider's classification: OpenAI's `error.type`, Anthropic's `error.type`, Google's
   * `error.status`; undefined when the error carries none. */
  type: string | undefined;
  message: string;
}

/** Where the client connects, and with which key (the key picks the session). */
export interface Target {
  url(provider: string): string;
  apiKey: string;
}

export interface ConformanceClient {
  /** Asks, as JSON or as a stream; rejects with what the SDK threw. */
  ask(question: Question, mode: Mode): Promise<Answer>;
}

export interface ConformanceDriver {
  /** Test names start with it, e.g. "openai-chat". */
  readonly name: string;
  /** The id of the dialect whose routes it drives (ChatDialect.id). */
  readonly dialect: string;
  /** The operation id each mode arrives on (RouteSpec.operation), as the journal records it; a
   * dialect that does not stream leaves `stream` out, and the suite skips its stream cases. */
  readonly operations: { json: string; stream?: string };
  /** What the journalled route (method and path) must look like, when operations share routes of
   * different shapes (Vertex AI with and without project and location). */
  readonly route?: RegExp;
  /** The provider's error type for a wire-validation 400, a scripted 429, and Understudy's own 409
   * (no script matches, or the scripted reply fails the request's contract). */
  readonly errorTypes: { invalidRequest: string; rateLimited: string; conflict: string };
  /** What the provider does not offer (its own tests show the refusal): the suite skips the cases
   * that ask for it, saying so. */
  readonly lacks?: readonly Feature[];
  /** False when the wire's tool calls carry no id (Cohere v1): the suite then expects calls back
   * without one, and a tool result paired with its call by the dialect rather than by the
   * scripted id. */
  readonly toolCallIds?: false;
  /** The status of a wire-validation refusal, when it is not 400 (Mistral's 422). */
  readonly invalidRequestStatus?: number;
  /** Set when the SDK cannot report an error inside a stream as an error: the stream then ends
   * with this finish reason (Mistral's SDK validates every chunk as a completion chunk). */
  readonly streamErrorFinish?: string;
  /** Set when the SDK's transport takes a connection closed part-way through a stream for the
   * stream's end, so the caller gets a cut answer and no error (the AWS client on HTTP/2: its
   * event-stream reader ends quietly whether the server resets the stream or drops the socket). */
  readonly streamCutEndsQuietly?: true;
  connect(target: Target): ConformanceClient;
  /** Reads what the SDK threw; throws itself when `thrown` is not something this SDK throws. */
  errorOf(thrown: unknown): ErrorSeen;
}

/** A scripted call as the driver's SDK hands it back: without its id where the wire has none. */
export function callAsSeen(driver: ConformanceDriver, call: ToolCallSeen): ToolCallSeen {
  return driver.toolCallIds === false ? { ...call, id: undefined } : call;
}

/** The SDKs' request timeout in the suite: nothing may hang. */
export const CLIENT_TIMEOUT_MS = 10_000;

/** Arguments text as an SDK hands it back, parsed (an SDK may give an object or a JSON string). */
export function parsedArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** An error a stream reported as an event rather than by throwing (the driver throws this). */
export class StreamErrorEvent extends Error {
  constructor(
    message: string,
    readonly type: string | undefined,
  ) {
    super(message);
    this.name = 'StreamErrorEvent';
  }
}
