// `understudy drift DIR --upstream NAME=URL …`: re-sends every recorded request under DIR to its
// upstream and reports, per step, whether the answer's shape is unchanged, drifted (and how), or
// could not be checked. Exit code: 0 when nothing drifted, 1 when a step drifted; usage errors
// (exit 2) are thrown as UsageError.

import { stat } from 'node:fs/promises';
import { checkStep, type Outcome } from './drift-check.js';
import { readRecordings } from './drift-recordings.js';
import { UsageError, type Parsed } from './flags.js';
import { upstreamsOf } from './record-flags.js';

export const DEFAULT_TIMEOUT_MS = 60_000;

interface Row {
  file: string;
  scenario?: string;
  step?: string;
  outcome: Outcome;
}

function headersOf(values: readonly string[]): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const value of values) {
    const m = /^([^:=\s]+):([!#$%&'*+.^_`|~0-9A-Za-z-]+)=(.*)$/s.exec(value);
    // The value may be a credential: the message names the flag's form, not what was given.
    if (!m) throw new UsageError('--header must be NAME:HEADER=VALUE (an --upstream name, a header name, its value)');
    const headers = out.get(m[1]) ?? {};
    headers[m[2].toLowerCase()] = m[3];
    out.set(m[1], headers);
  }
  return out;
}

function timeoutOf(raw: unknown): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_MS;
  const n = Number(raw);
  if (raw === '' || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--timeout-ms must be a positive integer, got "${String(raw)}"`);
  return n;
}

function where(row: Row): string {
  return row.scenario === undefined ? row.file : `${row.file}  ${row.scenario} / ${row.step}`;
}

function printRow(row: Row, out: (line: string) => void): void {
  const { outcome } = row;
  if (outcome.result === 'unchanged') out(`unchanged        ${where(row)}`);
  else if (outcome.result === 'drifted') {
    out(`drifted          ${where(row)}`);
    for (const line of outcome.differences) out(`    ${line}`);
  } else out(`could not check  ${where(row)}: ${outcome.reason}`);
}

function counts(rows: Row[]): Record<Outcome['result'], number> {
  const tally = { unchanged: 0, drifted: 0, 'could not check': 0 };
  for (const row of rows) tally[row.outcome.result]++;
  return tally;
}

/** Runs the command with its parsed flags; the exit code (0 nothing drifted, 1 something did). */
export async function runDrift(parsed: Parsed, out: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parsed;
  if (positionals.length === 0) throw new UsageError('drift needs the directory of recordings: understudy drift DIR --upstream NAME=URL');
  const upstreams = new Map(Object.entries(upstreamsOf((values.upstream as string[] | undefined) ?? [])));
  const headers = headersOf((values.header as string[] | undefined) ?? []);
  const timeoutMs = timeoutOf(values['timeout-ms']);
  for (const path of positionals) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isDirectory() && !info?.isFile()) throw new UsageError(`${path} is neither a directory nor a file`);
  }
  const json = values.json === true;
  const rows: Row[] = [];
  for (const path of positionals) {
    for (const item of await readRecordings(path)) {
      let row: Row;
      if ('reason' in item) row = { file: item.file, outcome: { result: 'could not check', reason: item.reason } };
      else {
        const { file, scenario, step, recorded } = item;
        const outcome: Outcome =
          typeof recorded === 'string'
            ? { result: 'could not check', reason: recorded }
            : await checkStep(recorded, { upstreams, headers, env, timeoutMs });
        row = { file, scenario, step, outcome };
      }
      rows.push(row);
      // Each step as it is checked: a long run shows its progress.
      if (!json) printRow(row, out);
    }
  }
  const tally = counts(rows);
  if (json) {
    out(
      JSON.stringify({
        results: rows.map(({ file, scenario, step, outcome }) => ({ file, scenario, step, ...outcome })),
        counts: { unchanged: tally.unchanged, drifted: tally.drifted, couldNotCheck: tally['could not check'] },
      }),
    );
  } else {
    const steps = rows.filter((r) => r.scenario !== undefined);
    const unreadable = rows.length - steps.length;
    if (rows.length === 0) out(`no recorded steps under ${positionals.join(', ')}`);
    else {
      const stepTally = counts(steps);
      const parts = [
        `${stepTally.unchanged} unchanged`,
        `${stepTally.drifted} drifted`,
        `${stepTally['could not check']} could not be checked`,
      ];
      if (unreadable > 0) parts.push(`${unreadable} ${unreadable === 1 ? 'file' : 'files'} unreadable`);
      const verdict =
        tally.drifted > 0
          ? 'exit 1: drifted'
          : tally['could not check'] > 0
            ? 'exit 0: nothing drifted, not everything was checked'
            : 'exit 0';
      out(`${steps.length} recorded ${steps.length === 1 ? 'step' : 'steps'}: ${parts.join(', ')} (${verdict})`);
    }
  }
  return tally.drifted > 0 ? 1 : 0;
}
