// The live journal: one row per request, newest first, each a button that opens the entry whole
// (fetched when first opened). Rows hidden by the filters stay in the list, ready when a filter
// changes.

import { ApiError, getJson } from './api.js';
import { fill, h, timeElement } from './dom.js';
import { formatMs, renderEntryDetail } from './entry-view.js';
import { statusClass, type Filters } from './filters.js';
import type { EntrySummary, FullEntry } from './types.js';

/** Most rows the page keeps; older ones leave the list as new ones come. */
const MAX_ROWS = 1000;

interface Row {
  summary: EntrySummary;
  item: HTMLLIElement;
  button: HTMLButtonElement;
  detail: HTMLDivElement;
  loaded: boolean;
}

let rowCount = 0;

/** What answered, or why not, in a few words. */
export function outcomeText(entry: EntrySummary): string {
  if (entry.event === 'request_aborted') return 'client gave up';
  if (entry.error) return entry.error.code ?? entry.error.message;
  if (entry.script) return entry.step ? `${entry.script} › ${entry.step}` : entry.script;
  return entry.source?.replace('_', ' ') ?? 'answered';
}

export class Feed {
  private readonly rows = new Map<string, Row>();

  constructor(
    private readonly list: HTMLOListElement,
    private readonly count: HTMLElement,
    private readonly filters: Filters,
  ) {}

  private key(entry: { session: string; seq: number }): string {
    return `${entry.session}/${entry.seq}`;
  }

  /** Rows the backlog of a new connection has named again; undefined outside a backlog. */
  private confirmed: Set<string> | undefined;

  /** A (re)connection's backlog begins: rows it does not name again are gone from the journal. */
  beginBacklog(): void {
    this.confirmed = new Set();
  }

  /** The backlog ended: rows it did not name (evicted, or reset while the page was away) leave. */
  endBacklog(): void {
    const confirmed = this.confirmed;
    this.confirmed = undefined;
    if (!confirmed) return;
    for (const key of [...this.rows.keys()]) if (!confirmed.has(key)) this.remove(key);
    this.updateCount();
  }

  add(entry: EntrySummary): void {
    const key = this.key(entry);
    this.confirmed?.add(key);
    const existing = this.rows.get(key);
    if (existing?.summary.requestId === entry.requestId) return;
    if (existing) this.remove(key);
    const id = `entry-${++rowCount}`;
    const marks = [
      entry.fault ? h('span', { className: 'badge badge-fault' }, 'fault') : null,
      entry.nearMisses?.length ? h('span', { className: 'badge badge-near' }, 'near miss') : null,
    ];
    const button = h(
      'button',
      { type: 'button', className: 'entry-toggle', 'aria-expanded': 'false', 'aria-controls': `${id}-detail` },
      h('span', { className: `status ${statusClass(entry.status)}` }, String(entry.status)),
      h('span', { className: 'entry-route' }, entry.route),
      h('span', { className: 'entry-outcome' }, outcomeText(entry), ...marks),
      h('span', { className: 'entry-session' }, entry.session),
      h('span', { className: 'entry-time' }, timeElement(entry.time), entry.ms === undefined ? '' : ` · ${formatMs(entry.ms)}`),
    );
    const detail = h('div', { className: 'entry-detail', id: `${id}-detail`, hidden: true });
    const item = h(
      'li',
      { className: 'entry', id, 'data-status': entry.status, 'data-session': entry.session, 'data-seq': entry.seq },
      button,
      detail,
    );
    const row: Row = { summary: entry, item, button, detail, loaded: false };
    button.addEventListener('click', () => void this.toggle(row));
    this.rows.set(key, row);
    this.filters.know(entry);
    item.hidden = !this.filters.matches(entry);
    this.list.prepend(item);
    while (this.rows.size > MAX_ROWS) this.remove(this.rows.keys().next().value!);
    this.updateCount();
  }

  private remove(key: string): void {
    this.rows.get(key)?.item.remove();
    this.rows.delete(key);
  }

  /** Forgets a session's rows (it was reset or deleted: its sequence numbers start again). */
  dropSession(session: string): void {
    for (const [key, row] of this.rows) if (row.summary.session === session) this.remove(key);
    this.updateCount();
  }

  applyFilters(): void {
    const values = this.filters.values();
    for (const row of this.rows.values()) row.item.hidden = !this.filters.matches(row.summary, values);
    this.updateCount();
  }

  private updateCount(): void {
    const shown = [...this.rows.values()].filter((row) => !row.item.hidden).length;
    const total = this.rows.size;
    this.count.textContent =
      total === 0
        ? 'No requests yet.'
        : shown === total
          ? `${total} ${total === 1 ? 'request' : 'requests'}`
          : `${shown} of ${total} requests shown`;
  }

  private async toggle(row: Row): Promise<void> {
    const open = row.button.getAttribute('aria-expanded') !== 'true';
    row.button.setAttribute('aria-expanded', String(open));
    row.detail.hidden = !open;
    row.item.classList.toggle('entry-open', open);
    if (!open || row.loaded) return;
    row.loaded = true;
    fill(row.detail, h('p', { className: 'loading' }, 'Loading…'));
    const { session, seq } = row.summary;
    try {
      const entry = await getJson<FullEntry>(`/sessions/${encodeURIComponent(session)}/journal/${seq}`);
      fill(row.detail, renderEntryDetail({ ...row.summary, ...entry }));
    } catch (e) {
      row.loaded = false;
      const gone = e instanceof ApiError && e.status === 404;
      fill(
        row.detail,
        h(
          'p',
          { className: 'error-message' },
          gone
            ? 'This entry is no longer in the journal (evicted, or its session was reset).'
            : `Could not load the entry: ${(e as Error).message}`,
        ),
      );
    }
  }
}
