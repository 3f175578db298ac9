// `understudy journal`: a running server's journal as text for a CI log (or JSON lines), read over
// the control API: the entries each session keeps and its counters, or, with --follow, the live
// feed (/_understudy/events), each request as it is answered, until Ctrl-C or the server leaves.

import { nearest } from './did-you-mean.js';
import { UsageError } from './flags.js';
import { countersLine, entryLines, type JournalEntryView } from './journal-text.js';

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8100';

export interface JournalOptions {
  /** The server's origin, e.g. http://127.0.0.1:8100. */
  url: string;
  session?: string;
  follow: boolean;
  json: boolean;
  controlToken?: string;
}

/** How long a plain read (not the live feed) may take. */
const READ_TIMEOUT_MS = 30_000;

/** A problem the user can act on: printed as one line, exit code 1. */
export class JournalError extends Error {}

/** The server origin from --url: http(s), nothing after the origin but an optional slash. */
export function serverUrlOf(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url must be the server's address, e.g. ${DEFAULT_SERVER_URL}; got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--url must be an http:// address, e.g. ${DEFAULT_SERVER_URL}; got "${raw}"`);
  }
  return url.origin;
}

interface ControlErrorBody {
  error?: { code?: string; message?: string };
}

class ControlClient {
  constructor(
    readonly base: string,
    private readonly token: string | undefined,
  ) {}

  private headers(): Record<string, string> {
    return this.token === undefined ? {} : { 'x-understudy-control-token': this.token };
  }

  /** The response to GET /_understudy{path}; a refusal or an unreachable server is a JournalError. */
  async open(path: string, signal: AbortSignal): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.base}/_understudy${path}`, { headers: this.headers(), signal });
    } catch (error) {
      if (signal.aborted && (signal.reason as Error | undefined)?.name !== 'TimeoutError') throw error;
      throw new JournalError(this.unreachable(error));
    }
    if (response.ok) return response;
    const body = (await response.json().catch(() => ({}))) as ControlErrorBody;
    if (response.status === 401) {
      throw new JournalError(
        this.token === undefined
          ? `the server at ${this.base} needs its control token: pass --control-token TOKEN (or set UNDERSTUDY_CONTROL_TOKEN)`
          : `the server at ${this.base} refused the control token given: pass the one it was started with (--control-token or UNDERSTUDY_CONTROL_TOKEN)`,
      );
    }
    throw new ControlRefusal(response.status, body.error?.code, body.error?.message ?? `${response.status} ${response.statusText}`);
  }

  async get<T>(path: string): Promise<T> {
    const response = await this.open(path, AbortSignal.timeout(READ_TIMEOUT_MS));
    try {
      return (await response.json()) as T;
    } catch (error) {
      throw new JournalError(
        `the server at ${this.base} answered GET /_understudy${path} with something other than JSON: ${String(error)}`,
      );
    }
  }

  private unreachable(error: unknown): string {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    if ((error as Error).name === 'TimeoutError') {
      return `the server at ${this.base} did not answer within ${READ_TIMEOUT_MS / 1000} s`;
    }
    return `cannot reach Understudy at ${this.base} (${why}): is it running? Start it with \`understudy serve\`, or point --url at it`;
  }
}

/** A control API answer other than 2xx or 401. */
class ControlRefusal extends JournalError {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly serverMessage: string,
  ) {
    super(serverMessage);
  }
}

interface SessionList {
  sessions: { id: string }[];
}

interface SessionJournal {
  entries: (JournalEntryView & Record<string, unknown>)[];
  counters: Record<string, number>;
}

/** Runs the command; resolves to its exit code. */
export async function runJournal(options: JournalOptions, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const client = new ControlClient(options.url, options.controlToken);
  try {
    return options.follow ? await follow(client, options, out, err) : await printJournal(client, options, out);
  } catch (error) {
    if (error instanceof ControlRefusal) throw new JournalError(await explainRefusal(client, error, options.session));
    throw error;
  }
}

async function explainRefusal(client: ControlClient, refusal: ControlRefusal, session: string | undefined): Promise<string> {
  if (refusal.code === 'session_not_found' && session !== undefined) {
    const ids = await client
      .get<SessionList>('/sessions')
      .then((list) => list.sessions.map((s) => s.id))
      .catch(() => undefined);
    if (!ids) return `session "${session}" does not exist on the server at ${client.base}`;
    const guess = nearest(session, ids);
    return `session "${session}" does not exist on the server at ${client.base}${guess ? `; did you mean "${guess}"?` : ''} Its sessions: ${ids.join(', ')}`;
  }
  return `the server at ${client.base} answered ${refusal.status}${refusal.code ? ` ${refusal.code}` : ''}: ${refusal.serverMessage}`;
}

const sessionPath = (id: string) => `/sessions/${encodeURIComponent(id)}`;

async function printJournal(client: ControlClient, options: JournalOptions, out: (line: string) => void): Promise<number> {
  const ids = options.session !== undefined ? [options.session] : (await client.get<SessionList>('/sessions')).sessions.map((s) => s.id);
  const journals: { id: string; journal: SessionJournal }[] = [];
  for (const id of ids) {
    try {
      journals.push({ id, journal: await client.get<SessionJournal>(`${sessionPath(id)}/journal`) });
    } catch (error) {
      // A session deleted between the list and its journal is no longer there to print.
      if (options.session === undefined && error instanceof ControlRefusal && error.code === 'session_not_found') continue;
      throw error;
    }
  }
  const entries = journals.flatMap(({ journal }) => journal.entries);
  // One timeline across sessions (each line names its session); a session's own order within a
  // millisecond is its sequence.
  entries.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.session === b.session ? a.seq - b.seq : 0));
  if (options.json) {
    for (const entry of entries) out(JSON.stringify(entry));
    for (const { id, journal } of journals) out(JSON.stringify({ session: id, counters: journal.counters }));
    return 0;
  }
  for (const entry of entries) for (const line of entryLines(entry)) out(line);
  const counted = journals.filter(({ journal }) => options.session !== undefined || (journal.counters.requests ?? 0) > 0);
  if (entries.length === 0) {
    out(options.session !== undefined ? `no requests in the journal of session ${options.session}` : 'no requests in any session');
  }
  for (const { id, journal } of counted) out(countersLine(id, journal.counters));
  return 0;
}

/** Server-sent events, as the feed sends them: `event:`, `data:` and `id:` lines, a blank line
 * ending each; a line starting with a colon is a comment (the keep-alive). */
export class EventStreamReader {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  /** The events completed by `text`. */
  push(text: string): { event: string; data: string }[] {
    this.buffer += text;
    const done: { event: string; data: string }[] = [];
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      if (line === '') {
        if (this.data.length || this.event) done.push({ event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
    }
    return done;
  }
}

async function follow(
  client: ControlClient,
  options: JournalOptions,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const session = options.session;
  // An unknown session is named as such, with the sessions there are, before subscribing.
  if (session !== undefined) await client.get(sessionPath(session));
  const controller = new AbortController();
  let stopped = false;
  const stop = () => {
    stopped = true;
    controller.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const query = `backlog=1${session !== undefined ? `&session=${encodeURIComponent(session)}` : ''}`;
    let response: Response;
    try {
      response = await client.open(`/events?${query}`, controller.signal);
    } catch (error) {
      if (stopped) return 0;
      throw error;
    }
    const what = session !== undefined ? `the journal of session ${session}` : 'the journal of every session';
    const reader = new EventStreamReader();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        for (const { event, data } of reader.push(decoder.decode(chunk, { stream: true }))) {
          if (event === 'entry') await printEntry(client, JSON.parse(data) as JournalEntryView, options.json, out);
          else if (event === 'live') {
            // The backlog holds the newest entries only; the feed says how many older ones it left out.
            const omitted = (JSON.parse(data) as { omitted?: number }).omitted;
            const left = omitted ? ` (the backlog left out ${omitted} older entries; without --follow every kept one is printed)` : '';
            err(`-- following ${what} at ${client.base}: new requests appear as they are answered (Ctrl-C stops)${left} --`);
          } else if (event === 'session' && !options.json) {
            const change = JSON.parse(data) as { id: string; change: string };
            out(`-- session ${change.id} ${change.change} --`);
          }
        }
      }
    } catch (error) {
      if (stopped) return 0;
      throw new JournalError(`the journal feed from ${client.base} broke off (${(error as Error).message}): the server went away`);
    }
    if (stopped) return 0;
    throw new JournalError(`the server at ${client.base} closed the journal feed: it was stopped or went away`);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

async function printEntry(client: ControlClient, entry: JournalEntryView, json: boolean, out: (line: string) => void): Promise<void> {
  if (json) {
    out(JSON.stringify(entry));
    return;
  }
  // A refusal whose summary lacks its explanation: the whole entry has it (unless evicted already).
  if (entry.status === 409 && entry.nearMisses === undefined && entry.error?.code === 'no_match') {
    const whole = await client.get<JournalEntryView>(`${sessionPath(entry.session)}/journal/${entry.seq}`).catch(() => undefined);
    if (whole?.nearMisses) entry = { ...entry, nearMisses: whole.nearMisses };
  }
  for (const line of entryLines(entry)) out(line);
}
