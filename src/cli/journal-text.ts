// How `understudy journal` writes a journal entry for a person reading a CI log: a header line in
// the request log's words (time, session, route, status, what answered), then, indented under it,
// what explains it: an error's message, each near miss's failed predicates with the expected and
// the actual value on lines of their own, usage, and how the answer was delivered.

/** A journal entry as the control API gives it (GET …/journal, or the live feed's summary). */
export interface JournalEntryView {
  seq: number;
  time: string;
  session: string;
  route: string;
  status: number;
  operation?: string;
  stream?: boolean;
  event?: string;
  source?: string;
  script?: string;
  step?: string;
  error?: { code: string | null; message: string };
  usage?: {
    inputTokens?: number;
    outputTokens?: number;
    cachedInputTokens?: number;
    reasoningTokens?: number;
    cacheWriteTokens?: number;
  };
  nearMisses?: { scenario: string; step: string; failed: { predicate: string; expected: string; actual: string }[] }[];
  ms?: number;
  firstByteMs?: number;
  fault?: string;
  /** The pacing the answer was written with. */
  pacing?: { ttftMs?: number; chunksPerSecond?: number; jitterMs?: number };
  worker?: number;
  truncated?: boolean;
}

const INDENT = '    ';

/** What answered the request, or why nothing did, in a few words. */
export function whatAnswered(entry: JournalEntryView): string {
  if (entry.event === 'request_aborted' || entry.status === 499) return 'aborted';
  if (entry.error) return entry.error.code ?? 'error';
  if (entry.source === 'zero_config') return entry.nearMisses?.length ? 'zero-config (near miss)' : 'zero-config';
  if (entry.source === 'upstream')
    return entry.script ? `upstream, recorded as scenario "${entry.script}" step "${entry.step}"` : 'upstream';
  const how = entry.source && entry.source !== 'script' ? ` (${entry.source})` : '';
  return entry.script ? `scenario "${entry.script}" step "${entry.step}"${how}` : 'answered';
}

/** `12:00:01.250` from an ISO time (the request log's form), or the text as it is. */
function clockOf(time: string): string {
  return /^\d{4}-\d\d-\d\dT/.test(time) ? time.slice(11, 23) : time;
}

export function headerLine(entry: JournalEntryView): string {
  const ms = entry.ms === undefined ? '' : `  ${formatMs(entry.ms)} ms`;
  return `${clockOf(entry.time)}  ${entry.session}  #${entry.seq}  ${entry.route}  ${entry.status}  ${whatAnswered(entry)}${ms}`;
}

function formatMs(ms: number): string {
  return ms >= 10 || Number.isInteger(ms) ? String(Math.round(ms)) : ms.toFixed(1);
}

/** The entry as text: its header line and the indented lines that explain it. */
export function entryLines(entry: JournalEntryView): string[] {
  const lines = [headerLine(entry)];
  if (entry.error) for (const line of entry.error.message.split('\n')) lines.push(`${INDENT}${line}`);
  for (const miss of entry.nearMisses ?? []) {
    lines.push(`${INDENT}near miss: scenario "${miss.scenario}" step "${miss.step}"`);
    for (const failed of miss.failed) {
      lines.push(`${INDENT}  ${failed.predicate}`);
      lines.push(...labelled(`${INDENT}    expected: `, failed.expected));
      lines.push(...labelled(`${INDENT}    actual:   `, failed.actual));
    }
  }
  const usage = usageText(entry.usage);
  if (usage) lines.push(`${INDENT}usage: ${usage}`);
  const delivery = deliveryText(entry);
  if (delivery) lines.push(`${INDENT}${delivery}`);
  if (entry.truncated) lines.push(`${INDENT}the request body was larger than the journal keeps whole: only a preview of it was kept`);
  return lines;
}

/** A value after its label; a value of several lines continues under the first, aligned. */
function labelled(label: string, value: string): string[] {
  const [first, ...rest] = value.split('\n');
  const pad = ' '.repeat(label.length);
  return [`${label}${first}`, ...rest.map((line) => `${pad}${line}`)];
}

function usageText(usage: JournalEntryView['usage']): string | undefined {
  if (!usage) return undefined;
  const parts: string[] = [];
  if (usage.inputTokens !== undefined) parts.push(`${usage.inputTokens} input`);
  if (usage.outputTokens !== undefined) parts.push(`${usage.outputTokens} output`);
  if (usage.cachedInputTokens) parts.push(`${usage.cachedInputTokens} cached input`);
  if (usage.cacheWriteTokens) parts.push(`${usage.cacheWriteTokens} cache write`);
  if (usage.reasoningTokens) parts.push(`${usage.reasoningTokens} reasoning`);
  return parts.length ? `${parts.join(', ')} tokens` : undefined;
}

function deliveryText(entry: JournalEntryView): string | undefined {
  const parts: string[] = [];
  if (entry.stream) parts.push('stream');
  const pacing = pacingText(entry.pacing);
  if (pacing) parts.push(pacing);
  // A JSON answer's first byte is its whole answer; a stream's tells when it began.
  if (entry.stream && entry.firstByteMs !== undefined) parts.push(`first byte after ${formatMs(entry.firstByteMs)} ms`);
  if (entry.fault) parts.push(`fault: ${entry.fault}`);
  if (entry.worker !== undefined) parts.push(`worker ${entry.worker}`);
  return parts.length ? parts.join(', ') : undefined;
}

function pacingText(pacing: JournalEntryView['pacing']): string | undefined {
  if (!pacing) return undefined;
  const parts: string[] = [];
  if (pacing.ttftMs !== undefined) parts.push(`first token after ${pacing.ttftMs} ms`);
  if (pacing.chunksPerSecond !== undefined) parts.push(`${pacing.chunksPerSecond} chunks/s`);
  if (pacing.jitterMs) parts.push(`jitter ±${pacing.jitterMs} ms`);
  return parts.length ? `paced (${parts.join(', ')})` : 'paced';
}

/** The journal's counters in its own order, each in words. */
const COUNTER_WORDS: [string, string][] = [
  ['requests', 'requests'],
  ['matched', 'matched'],
  ['unmatched', 'unmatched'],
  ['exhausted', 'exhausted'],
  ['mismatched', 'mismatched'],
  ['invalid', 'invalid'],
  ['errorsReturned', 'errors returned'],
  ['aborted', 'aborted'],
  ['nearMisses', 'near misses'],
  ['evicted', 'evicted'],
];

export function countersLine(session: string, counters: Record<string, number>): string {
  const known = new Set(COUNTER_WORDS.map(([key]) => key));
  const parts = COUNTER_WORDS.filter(([key]) => counters[key] !== undefined).map(([key, words]) => `${words} ${counters[key]}`);
  // A counter added to the server later is shown under its own name.
  for (const [key, value] of Object.entries(counters)) if (!known.has(key)) parts.push(`${key} ${value}`);
  return `session ${session}: ${parts.join(', ')}`;
}
