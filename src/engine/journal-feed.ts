// The server's live feed: journal entries as they are added and session changes, for whoever
// listens (the control API's event stream, which the dashboard and `understudy journal --follow`
// read). With no listener a journal pays one field check per entry.

import type { JournalEntry, JournalRecord } from './journal.js';
import { journalEvent } from './journal.js';

/** A journal entry without the decoded request and reply (the control API gives those whole). */
export type EntrySummary = Omit<JournalEntry, 'request' | 'reply'>;

export type SessionChange = 'created' | 'deleted' | 'loaded' | 'reset';

export interface FeedListener {
  /** Only this session's entries and changes; every session's when undefined. */
  session: string | undefined;
  entry(summary: EntrySummary): void;
  changed(id: string, change: SessionChange): void;
  /** The server is closing: the listener ends its stream. */
  end(): void;
}

export class JournalFeed {
  private readonly listeners = new Set<FeedListener>();
  listening = false;

  listen(listener: FeedListener): () => void {
    this.listeners.add(listener);
    this.listening = true;
    return () => {
      this.listeners.delete(listener);
      this.listening = this.listeners.size > 0;
    };
  }

  added(record: JournalRecord): void {
    let summary: EntrySummary | undefined;
    for (const listener of this.listeners) {
      if (listener.session !== undefined && listener.session !== record.session) continue;
      summary ??= summaryOf(record);
      listener.entry(summary);
    }
  }

  /** Ends every listener (the server is closing). */
  close(): void {
    for (const listener of [...this.listeners]) listener.end();
    this.listeners.clear();
    this.listening = false;
  }

  sessionChanged(id: string, change: SessionChange): void {
    for (const listener of this.listeners) {
      if (listener.session === undefined || listener.session === id) listener.changed(id, change);
    }
  }
}

/** What the feed says of a record: the fields a list of requests shows, nothing decoded. */
export function summaryOf(record: JournalRecord): EntrySummary {
  const summary: Record<string, unknown> = {
    session: record.session,
    seq: record.seq,
    requestId: record.requestId,
    time: new Date(record.at).toISOString(),
    route: record.route,
    operation: record.operation,
    stream: record.stream,
    status: record.status,
    event: journalEvent(record),
  };
  const optional: Partial<Record<keyof EntrySummary, unknown>> = {
    source: record.source,
    script: record.script,
    step: record.step,
    error: record.error,
    usage: record.usage,
    nearMisses: record.nearMisses,
    truncated: record.truncated,
    ms: record.ms,
    firstByteMs: record.firstByteMs,
    fault: record.fault,
    pacing: record.pacing,
    worker: record.worker,
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) summary[key] = value;
  return structuredClone(summary) as EntrySummary;
}
