// Command-line flags described once: what parses them, what `--help` prints, and what a mistyped
// one is matched against all come from the same table.

import { parseArgs } from 'node:util';
import { nearest } from './did-you-mean.js';

export interface Flag {
  name: string;
  /** A boolean flag takes no value; a string flag one (several when `multiple`). */
  type: 'boolean' | 'string';
  multiple?: boolean;
  short?: string;
  /** How the value is written in help, e.g. `N` or `FILE...`. */
  value?: string;
  /** What the flag does; shown in help. */
  description: string;
  /** What is in force without the flag, as help shows it. */
  default?: string;
}

/** Bad usage: the message says what was wrong (and what was probably meant); exit code 2. */
export class UsageError extends Error {}

export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** Parses `args` against `flags`. Unknown flags, a missing value and a value given to a boolean
 * flag are UsageErrors in our words (node's parseArgs messages name its own API). */
export function parseFlags(args: string[], flags: readonly Flag[], command: string): Parsed {
  const byName = new Map(flags.map((f) => [f.name, f]));
  const options = Object.fromEntries(
    flags.map((f) => [f.name, { type: f.type, ...(f.multiple && { multiple: true }), ...(f.short && { short: f.short }) }]),
  );
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  const values: Parsed['values'] = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind !== 'option') continue;
    const flag = byName.get(token.name);
    if (!flag) throw new UsageError(unknownFlag(token.rawName, flags, command));
    if (flag.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`--${flag.name} takes no value (found "${token.rawName}=${token.value}")`);
      values[flag.name] = true;
      continue;
    }
    // parseArgs takes the next argument as the value even when it is another flag.
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-') && token.value !== '-')) {
      throw new UsageError(`--${flag.name} needs a value: --${flag.name} ${flag.value ?? 'VALUE'}`);
    }
    if (flag.multiple) values[flag.name] = [...((values[flag.name] as string[] | undefined) ?? []), token.value];
    else values[flag.name] = token.value;
  }
  return { values, positionals };
}

function unknownFlag(rawName: string, flags: readonly Flag[], command: string): string {
  const typed = rawName.replace(/^-+/, '');
  const guess = nearest(
    typed,
    flags.map((f) => f.name),
  );
  const hint = guess ? `; did you mean --${guess}?` : '';
  return `unknown flag "${rawName}" for "understudy ${command}"${hint} (understudy ${command} --help lists them)`;
}

/** The flags as help prints them: one entry a flag, its description wrapped under it. */
export function describeFlags(flags: readonly Flag[]): string[] {
  const lines: string[] = [];
  for (const flag of flags) {
    const name = `${flag.short ? `-${flag.short}, ` : ''}--${flag.name}${flag.value ? ` ${flag.value}` : ''}`;
    lines.push(`  ${name}`);
    const text = flag.default === undefined ? flag.description : `${flag.description} Default: ${flag.default}.`;
    for (const line of wrap(text, 74)) lines.push(`      ${line}`);
  }
  return lines;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
