// GET /_understudy/events: the journal's entries and the sessions' changes as server-sent events,
// for the dashboard and `understudy journal --follow`. A slow reader is not waited for: past a
// bound of unsent bytes its connection is closed (it reconnects with backlog=1 and loses nothing
// the journal still keeps). The backlog itself is written at the reader's pace.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { summaryOf, type EntrySummary, type SessionChange } from '../engine/journal-feed.js';
import type { JournalRecord } from '../engine/journal.js';
import type { Registry } from '../engine/registry.js';

const KEEP_ALIVE_MS = 15_000;
/** The newest entries a backlog holds, over every session it covers (the dashboard keeps as many). */
export const MOST_BACKLOG = 1000;
/** Unsent bytes a reader may fall behind by before its feed is closed. */
const MOST_UNSENT = 8 * 1024 * 1024;

export interface FeedAsk {
  session: string | undefined;
  backlog: boolean;
}

/** What the query asks of the feed, or the reason it is wrong. */
export function feedAsk(query: URLSearchParams): FeedAsk | string {
  for (const key of query.keys()) {
    if (key !== 'session' && key !== 'backlog') return `/${key}: unknown query parameter; expected session or backlog`;
  }
  const backlog = query.get('backlog');
  if (backlog !== null && !['1', 'true', '0', 'false'].includes(backlog))
    return `backlog: expected 1, true, 0 or false, found "${backlog}"`;
  return { session: query.get('session') ?? undefined, backlog: backlog === '1' || backlog === 'true' };
}

export function serveFeed(registry: Registry, req: IncomingMessage, res: ServerResponse, ask: FeedAsk): void {
  req.resume();
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  // While the backlog is written (at the reader's pace), what happens meanwhile waits here, in
  // order, under the same bound.
  let held: string[] | undefined = ask.backlog ? [] : undefined;
  let heldChars = 0;
  const write = (text: string) => {
    if (res.destroyed) return;
    if (held) {
      held.push(text);
      heldChars += text.length;
      if (heldChars > MOST_UNSENT) res.destroy();
      return;
    }
    res.write(text);
    if (res.writableLength > MOST_UNSENT) res.destroy();
  };
  const changed = (id: string, change: SessionChange) => write(`event: session\ndata: ${JSON.stringify({ id, change })}\n\n`);
  // Subscribed before the backlog is read: nothing added in between is missed.
  const stop = registry.feed.listen({
    session: ask.session,
    entry: (summary) => write(entryEvent(summary)),
    changed,
    end: () => res.end(),
  });
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  res.once('close', () => {
    clearInterval(keepAlive);
    stop();
  });
  if (!ask.backlog) {
    write(': live\n\n');
    return;
  }
  const sessions = ask.session === undefined ? registry.list() : [registry.get(ask.session)].filter((s) => s !== undefined);
  let records = sessions.flatMap((session) => session.journal.records(MOST_BACKLOG));
  if (sessions.length > 1) records.sort((a, b) => a.at - b.at);
  const omitted = Math.max(0, records.length - MOST_BACKLOG);
  records = records.slice(omitted);
  void writeBacklog(res, records).then(() => {
    if (res.destroyed) return;
    const waiting = held ?? [];
    held = undefined;
    write(`event: live\ndata: ${JSON.stringify(omitted > 0 ? { omitted } : {})}\n\n`);
    for (const text of waiting) write(text);
  });
}

function entryEvent(summary: EntrySummary): string {
  return `id: ${summary.session}/${summary.seq}\nevent: entry\ndata: ${JSON.stringify(summary)}\n\n`;
}

/** Writes the kept entries at the reader's pace: a thousand large entries are not buffered at once
 * (nor counted against the bound a live reader is held to). */
async function writeBacklog(res: ServerResponse, records: readonly JournalRecord[]): Promise<void> {
  for (const record of records) {
    if (res.destroyed) return;
    if (!res.write(entryEvent(summaryOf(record)))) await drainedOrClosed(res);
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
