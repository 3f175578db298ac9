// Record mode (decision 0017): which requests go to an upstream, and what is kept of each answer.
// A request no script answers (every request, in mode `all`) whose provider has an upstream is
// relayed (relay.ts); once its client had the whole answer, the dialect's reader reads it back
// and the recording book writes it as a script step (engine/recording-book.ts) with its `when`
// made from the decoded request (engine/recording.ts).

import type { JsonValue, Pacing, ResolvedReply } from '../core/model.js';
import type { RecordedAnswer } from '../core/recorded-answer.js';
import { RecordingBook, type RecordedExchange } from '../engine/recording-book.js';
import { recordedReply, recordedWhen, type RecordMatch } from '../engine/recording.js';
import { redactionOf, redactPaths, type Redaction } from '../engine/redaction.js';
import type { ReplyLimits } from '../engine/reply-limits.js';
import type { Session } from '../engine/session.js';
import { sessionRecordings } from '../engine/session-recordings.js';
import type { FixtureSpec } from '../engine/spec.js';
import { answerShape } from '../dialects/wire-kit/answer-shape.js';
import type { Outcomes } from './outcomes.js';
import { encodeContext, type Exchange } from './provider-exchange.js';
import { BedrockSigner, isSigV4, recordRefusal, type AwsSigning } from './bedrock-resign.js';
import { forwardedHeaders, joinUrl, relay, upstreamPath, type RelayedAnswer } from './relay.js';
import { CHAT_PROVIDERS, providerOf } from './routes.js';

export interface RecordOptions {
  /** Where the recordings are written (created when missing). */
  dir: string;
  /** Each provider's real base URL, as its SDK would be given it (`openai`: the one ending in `/v1`). */
  upstreams: Record<string, string>;
  /** `missing` (default): only what no script answers goes upstream; `all`: every request does. */
  mode?: 'missing' | 'all';
  /** `session` (default): a file per session, `DIR/<session>.yaml`; `scenario`: `DIR/<session>/<scenario>.yaml`. */
  layout?: 'session' | 'scenario';
  /** What a step's `when` holds (engine/recording.ts); default `conversation`. */
  match?: RecordMatch;
  /** More body members (JSON paths) or text (`/pattern/flags`) to keep out of the files. */
  redact?: string[];
  /** Leave out the default redactions (the end-user identifiers). */
  noDefaultRedactions?: boolean;
  /** Keep the upstream's timing as each step's pacing. */
  timing?: boolean;
  /** Told what could not be recorded, and why (default: a line on standard error). */
  onWarning?: (message: string) => void;
  /** How a SigV4-signed Bedrock request is signed again for the upstream (bedrock-resign.ts):
   * the recorder's own AWS credentials, never the application's. */
  aws?: AwsSigning;
}

/** Request headers a recording keeps for drift to send again: none that can carry a credential. */
const KEPT_HEADERS = ['content-type', 'accept', 'anthropic-version', 'anthropic-beta', 'openai-beta'];
/** Query parameters that carry credentials (Gemini's `key`). */
const CREDENTIAL_QUERY = ['key'];

export class Recorder {
  private readonly book: RecordingBook;
  private readonly upstreams: Map<string, string>;
  private readonly redaction: Redaction;
  readonly mode: 'missing' | 'all';
  private readonly warn: (message: string) => void;
  private signer?: BedrockSigner;

  constructor(
    private readonly options: RecordOptions,
    private readonly outcomes: Outcomes,
  ) {
    this.upstreams = checkedUpstreams(options.upstreams);
    this.mode = options.mode ?? 'missing';
    this.redaction = redactionOf(options.redact ?? [], !options.noDefaultRedactions);
    this.book = new RecordingBook({ dir: options.dir, mode: this.mode, layout: options.layout ?? 'session', redaction: this.redaction });
    this.warn = options.onWarning ?? ((message) => process.stderr.write(`understudy: ${message}\n`));
  }

  /** The upstream of the exchange's provider, when record mode has one for it in its session. */
  upstreamOf(exchange: Exchange): string | undefined {
    const own = exchange.session.record;
    if (own === false) return undefined;
    const provider = providerOf(exchange.wire.operation);
    return own?.upstreams?.[provider] ?? this.upstreams.get(provider);
  }

  /** The session's mode, over the server's. */
  modeOf(session: Session): 'missing' | 'all' {
    return (session.record && session.record.mode) || this.mode;
  }

  /** Relays the exchange to its upstream and records the answer once delivered. */
  async forward(exchange: Exchange, upstream: string, body: string): Promise<void> {
    const provider = providerOf(exchange.wire.operation);
    const path = upstreamPath(provider, exchange.res.req.url ?? '/');
    const target = joinUrl(upstream, path);
    const signed = await this.resigned(provider, exchange, target, body);
    if (signed && 'refusal' in signed) {
      this.outcomes.finishError(exchange, exchange.dialect, {
        kind: 'invalid_request',
        status: 501,
        code: 'record_unsupported',
        message: recordRefusal(signed.refusal),
      });
      return;
    }
    const relayed = await relay(exchange, target, body, this.outcomes, signed?.headers);
    if (!relayed) return;
    const { entry, session, request } = exchange;
    entry.stream = request.stream;
    entry.status = relayed.status;
    entry.source = 'upstream';
    if (relayed.status < 200 || relayed.status > 299) {
      entry.error = { code: 'upstream_status', message: `the upstream answered ${relayed.status}; not recorded` };
      this.outcomes.journalAdd(session, entry, request);
      return;
    }
    const read = this.readBack(exchange, relayed);
    if (typeof read === 'string') {
      this.warn(`${entry.requestId} (${entry.route}) was relayed but not recorded: ${read}`);
      this.outcomes.journalAdd(session, entry, request);
      return;
    }
    entry.reply = journalReply(read);
    if (read.usage) entry.usage = read.usage;
    // As if Understudy had answered: the dialect keeps what later requests refer to (a stored
    // response under the upstream's id, so that a continuation of it decodes; a call's id).
    if (exchange.dialect.delivered) {
      const ctx = encodeContext(exchange);
      exchange.dialect.delivered(entry.reply, request, read.responseId ? { ...ctx, responseId: read.responseId } : ctx);
    }
    try {
      const where = this.book.add(session.id, request, {
        when: recordedWhen(request, this.options.match ?? 'conversation'),
        reply: recordedReply(read, this.options.timing ? pacingOf(relayed, read) : undefined),
        recorded: this.exchangeOf(exchange, provider, path, body, relayed, read),
      });
      entry.script = where.scenario;
      entry.step = where.step;
    } catch (error) {
      this.warn(`${entry.requestId} (${entry.route}) was relayed but not recorded: ${(error as Error).message}`);
    }
    this.outcomes.journalAdd(session, entry, request);
  }

  /** A SigV4-signed Bedrock request's headers signed again for the upstream (its signature covers
   * Understudy's host), or why they cannot be; undefined for any other request. */
  private async resigned(provider: string, exchange: Exchange, target: URL, body: string) {
    const req = exchange.res.req;
    const authorization = req.headers.authorization;
    if (provider !== 'bedrock' || !isSigV4(authorization)) return undefined;
    this.signer ??= new BedrockSigner(this.options.aws);
    const headers = forwardedHeaders(req.headers, target);
    return this.signer.sign({ method: req.method ?? 'POST', target, headers, body, authorization });
  }

  private readBack(exchange: Exchange, relayed: RelayedAnswer): RecordedAnswer | string {
    const reader = exchange.dialect.readAnswer;
    if (!reader) return `reading ${exchange.dialect.id} answers back is not built yet`;
    if (relayed.body.length === 0) return 'the answer was empty, or too large to keep';
    if (exchange.request.stream) return reader.stream(relayed.body.toString(exchange.dialect.binaryStream ? 'latin1' : 'utf8'));
    let parsed: unknown;
    try {
      parsed = JSON.parse(relayed.body.toString('utf8'));
    } catch {
      return 'the answer is not JSON';
    }
    return reader.json(parsed);
  }

  private exchangeOf(
    exchange: Exchange,
    provider: string,
    path: string,
    body: string,
    relayed: RelayedAnswer,
    read: RecordedAnswer,
  ): RecordedExchange {
    const headers: Record<string, string> = {};
    const sent = exchange.res.req.headers;
    for (const name of KEPT_HEADERS) {
      const value = sent[name];
      if (typeof value === 'string') headers[name] = value;
    }
    let parsed: JsonValue;
    try {
      parsed = JSON.parse(body) as JsonValue;
    } catch {
      parsed = body;
    }
    return {
      provider,
      operation: exchange.wire.operation,
      method: exchange.res.req.method ?? 'POST',
      path: withoutCredentials(path),
      headers,
      body: redactPaths(parsed, this.redaction.paths),
      stream: exchange.request.stream,
      status: relayed.status,
      shape: shapeOf(exchange, relayed, read),
    };
  }
}

/** How each session of a server starts under record and replay options: a session that names
 * its own upstreams is refused unless the server records (and its upstreams are checked), and
 * its recordings are loaded (from `replay`, or in mode `missing` from the record directory). */
export function sessionStart(
  options: { record?: RecordOptions; replay?: string },
  limits: Partial<ReplyLimits>,
): { prepare(session: Session): void; recordingsOf(sessionId: string): FixtureSpec | undefined } {
  const { record, replay } = options;
  const dir = replay ?? (record && (record.mode ?? 'missing') === 'missing' ? record.dir : undefined);
  const recordingsOf = (sessionId: string) => (dir === undefined ? undefined : sessionRecordings(dir, sessionId, limits));
  return {
    recordingsOf,
    prepare(session) {
      if (session.record) {
        if (!record) {
          throw new Error(
            `session "${session.id}" asks to record, but this server does not record: start it with --record DIR (record in process)`,
          );
        }
        checkedUpstreams(session.record.upstreams ?? {});
      }
      const recorded = recordingsOf(session.id);
      if (recorded) session.load(recorded);
    },
  };
}

/** The upstreams as given, checked: known provider names and http(s) URLs; throws naming the first
 * that is not. */
export function checkedUpstreams(given: Record<string, string>): Map<string, string> {
  const upstreams = new Map<string, string>();
  for (const [provider, url] of Object.entries(given)) {
    if (!CHAT_PROVIDERS.includes(provider)) {
      throw new Error(`record mode: unknown upstream provider "${provider}"; known: ${CHAT_PROVIDERS.join(', ')}`);
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`record mode: the ${provider} upstream "${url}" is not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error(`record mode: the ${provider} upstream "${url}" must be an http: or https: URL`);
    }
    upstreams.set(provider, url);
  }
  return upstreams;
}

function withoutCredentials(path: string): string {
  const at = path.indexOf('?');
  if (at < 0) return path;
  const query = new URLSearchParams(path.slice(at + 1));
  for (const name of CREDENTIAL_QUERY) query.delete(name);
  const rest = query.toString();
  return rest === '' ? path.slice(0, at) : `${path.slice(0, at)}?${rest}`;
}

function pacingOf(relayed: RelayedAnswer, read: RecordedAnswer): Pacing {
  const pacing: Pacing = { ttftMs: Math.round(relayed.firstByteMs) };
  const span = relayed.totalMs - relayed.firstByteMs;
  if (read.chunks.length > 1 && span > 0) pacing.chunksPerSecond = Math.max(1, Math.round(((read.chunks.length - 1) * 1000) / span));
  return pacing;
}

/** What drift compares the provider's answers of later days with. */
function shapeOf(exchange: Exchange, relayed: RelayedAnswer, read: RecordedAnswer): JsonValue {
  const contentType = relayed.headers['content-type'] ?? '';
  const text = relayed.body.toString(exchange.dialect.binaryStream && exchange.request.stream ? 'latin1' : 'utf8');
  return { ...answerShape({ status: relayed.status, contentType, body: text, stream: exchange.request.stream }, read) };
}

function journalReply(read: RecordedAnswer): ResolvedReply {
  return {
    content: read.content,
    chunks: read.chunks,
    toolCalls: read.toolCalls.map((c) => ({ id: c.id, name: c.name, argumentsText: c.argumentsText })),
    reasoning: read.reasoning,
    finishReason: read.finishReason ?? 'stop',
    usage: read.usage ?? { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
    wholeToolCalls: false,
    shape: undefined,
  };
}
