// The journal's filters: by session, by route, and by status (a class such as 4xx, or one status).

import { h } from './dom.js';
import type { EntrySummary } from './types.js';

export const STATUS_CLASSES = ['2xx', '4xx', '409', '5xx'] as const;

/** Whether a status passes the status filter: '' (any), a class ('2xx', '4xx', '5xx') or one status ('409', '429' …). */
export function statusMatches(filter: string, status: number): boolean {
  if (filter === '') return true;
  const cls = /^([1-5])xx$/.exec(filter);
  if (cls) return Math.floor(status / 100) === Number(cls[1]);
  return Number(filter) === status;
}

/** The CSS class of a status badge. */
export function statusClass(status: number): string {
  if (status === 409) return 'status-409';
  if (status === 499) return 'status-aborted';
  return `status-${Math.floor(status / 100)}xx`;
}

export interface FilterValues {
  session: string;
  route: string;
  status: string;
}

/** Keeps a select's options equal to `values` (after its fixed first options), its choice kept. */
function syncOptions(select: HTMLSelectElement, fixed: number, values: { value: string; label: string }[]): void {
  const current = select.value;
  const wanted = values.map((v) => `${v.value}\u0000${v.label}`).join('\u0001');
  const have = [...select.options]
    .slice(fixed)
    .map((o) => `${o.value}\u0000${o.textContent}`)
    .join('\u0001');
  if (wanted === have) return;
  while (select.options.length > fixed) select.remove(fixed);
  for (const { value, label } of values) select.append(h('option', { value }, label));
  select.value = [...select.options].some((o) => o.value === current) ? current : '';
}

export class Filters {
  private readonly sessions = new Set<string>();
  private readonly routes = new Set<string>();
  private readonly statuses = new Set<number>();

  constructor(
    readonly session: HTMLSelectElement,
    readonly route: HTMLSelectElement,
    readonly status: HTMLSelectElement,
    onChange: () => void,
  ) {
    for (const select of [session, route, status]) select.addEventListener('change', onChange);
  }

  values(): FilterValues {
    return { session: this.session.value, route: this.route.value, status: this.status.value };
  }

  matches(entry: EntrySummary, values = this.values()): boolean {
    return (
      (values.session === '' || entry.session === values.session) &&
      (values.route === '' || entry.route === values.route) &&
      statusMatches(values.status, entry.status)
    );
  }

  /** Offers the sessions the server lists as well as those seen in the journal. */
  knowSessions(ids: string[]): void {
    for (const id of ids) this.sessions.add(id);
    this.refresh();
  }

  /** Offers what this entry shows as filter choices. */
  know(entry: EntrySummary): void {
    const before = this.sessions.size + this.routes.size + this.statuses.size;
    this.sessions.add(entry.session);
    this.routes.add(entry.route);
    this.statuses.add(entry.status);
    if (this.sessions.size + this.routes.size + this.statuses.size !== before) this.refresh();
  }

  private refresh(): void {
    syncOptions(
      this.session,
      1,
      [...this.sessions].sort().map((id) => ({ value: id, label: id })),
    );
    syncOptions(
      this.route,
      1,
      [...this.routes].sort().map((route) => ({ value: route, label: route })),
    );
    syncOptions(
      this.status,
      1 + STATUS_CLASSES.length,
      [...this.statuses]
        .filter((status) => status !== 409)
        .sort((a, b) => a - b)
        .map((status) => ({ value: String(status), label: `exactly ${status}` })),
    );
  }
}
