// A session's record of what happened, bounded by entry count; counters keep counting after the
// oldest entries are evicted. Snapshots are copies, never live state.

import type { ChatRequest, ResolvedReply, Usage } from '../core/model.js';

export interface JournalEntry {
  seq: number;
  requestId: string;
  /** Wall-clock arrival time (ISO). Response bytes use the session clock instead. */
  time: string;
  session: string;
  route: string;
  operation: string;
  stream: boolean;
  status: number;
  /** The decoded request; absent when the body could not be decoded. */
  request?: ChatRequest;
  reply?: ResolvedReply;
  error?: { code: string | null; message: string };
  usage?: Usage;
  script?: string;
  step?: string;
  /** How the reply was chosen. */
  source?: 'script' | 'repeat_last' | 'restart' | 'zero_config';
}

export interface JournalCounters {
  requests: number;
  matched: number;
  unmatched: number;
  exhausted: number;
  mismatched: number;
  invalid: number;
  errorsReturned: number;
  evicted: number;
}

export function emptyCounters(): JournalCounters {
  return { requests: 0, matched: 0, unmatched: 0, exhausted: 0, mismatched: 0, invalid: 0, errorsReturned: 0, evicted: 0 };
}

export class Journal {
  private entries: JournalEntry[] = [];
  private seq = 0;
  counters: JournalCounters = emptyCounters();

  constructor(private readonly maxEntries: number) {}

  add(entry: Omit<JournalEntry, 'seq'>): JournalEntry {
    const full = { seq: ++this.seq, ...entry };
    if (this.maxEntries <= 0) {
      this.counters.evicted++;
      return full;
    }
    this.entries.push(full);
    if (this.entries.length > this.maxEntries) {
      this.entries.splice(0, this.entries.length - this.maxEntries);
      this.counters.evicted++;
    }
    return full;
  }

  snapshot(): { entries: JournalEntry[]; counters: JournalCounters } {
    return structuredClone({ entries: this.entries, counters: this.counters });
  }

  clear(): void {
    this.entries = [];
    this.counters = emptyCounters();
  }
}
