// The sessions of one server, found by id or by the API key a request already carries.

import { JournalFeed } from './journal-feed.js';
import { Session, type SessionOptions } from './session.js';

export const DEFAULT_SESSION_ID = 'default';
const SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

export class Registry {
  private readonly byId = new Map<string, Session>();
  private readonly byKey = new Map<string, Session>();
  private anonymous = 0;
  readonly defaultSession: Session;
  /** Every session's journal entries and changes, as they happen (journal-feed.ts). */
  readonly feed = new JournalFeed();
  /** Called with the id of each session deleted (the metrics fold its series away). */
  readonly onDelete: ((id: string) => void)[] = [];

  constructor(
    defaultOptions: Omit<SessionOptions, 'id'> = {},
    private readonly maxSessions = 10_000,
    /** Readies a session as it is made (e.g. loads its recordings); may throw to refuse it. */
    private readonly prepare?: (session: Session) => void,
  ) {
    this.defaultSession = new Session({ id: DEFAULT_SESSION_ID, apiKey: defaultOptions.apiKey ?? 'understudy', ...defaultOptions });
    this.add(this.defaultSession);
  }

  private add(session: Session): void {
    this.byId.set(session.id, session);
    this.byKey.set(session.apiKey, session);
    session.feed = this.feed;
  }

  /** Creates a session; throws with a readable message on a bad or duplicate id or key. */
  create(options: Partial<SessionOptions>): Session {
    const id = options.id ?? `session-${++this.anonymous}`;
    if (!SESSION_ID.test(id)) throw new Error(`session id "${id}" must be 1-128 characters of letters, digits, ".", "_" or "-"`);
    if (this.byId.has(id)) throw new Error(`session "${id}" already exists`);
    if (options.apiKey !== undefined && this.byKey.has(options.apiKey))
      throw new Error(`API key is already used by session "${this.byKey.get(options.apiKey)?.id}"`);
    if (this.byId.size >= this.maxSessions) throw new Error(`too many sessions (limit ${this.maxSessions}); delete finished ones`);
    const session = new Session({ ...options, id });
    this.prepare?.(session);
    this.add(session);
    this.feed.sessionChanged(id, 'created');
    return session;
  }

  get(id: string): Session | undefined {
    return this.byId.get(id);
  }

  byApiKey(key: string): Session | undefined {
    return this.byKey.get(key);
  }

  /** Deletes a session; `replaced` when a new one of the same id takes its place at once (a
   * worker's replica brought in line), which is no deletion to tell anyone of. */
  delete(id: string, replaced = false): boolean {
    const session = this.byId.get(id);
    if (!session || session === this.defaultSession) return false;
    this.byId.delete(id);
    this.byKey.delete(session.apiKey);
    session.generation++;
    session.feed = undefined;
    if (replaced) return true;
    this.feed.sessionChanged(id, 'deleted');
    for (const told of this.onDelete) told(id);
    return true;
  }

  list(): Session[] {
    return [...this.byId.values()];
  }
}
