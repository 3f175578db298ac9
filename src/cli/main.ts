#!/usr/bin/env node
// The `understudy` command.

import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { runPrimary } from '../cluster/primary.js';
import { WORKER_INDEX_ENV } from '../cluster/protocol.js';
import type { ChaosOptions } from '../core/model.js';
import { replyLimits } from '../engine/reply-limits.js';
import { COMMAND_NAMES, commandHelp, DRIFT_FLAGS, generalHelp, SERVE_FLAGS, VALIDATE_FLAGS } from './commands.js';
import { nearest } from './did-you-mean.js';
import { parseFlags, UsageError, type Parsed } from './flags.js';
import { printLine, quietOnClosedPipe, whenPipeCloses } from './pipe.js';
import { recordFromFlags } from './record-flags.js';
import { runServe } from './serve.js';
import { runValidate } from './validate.js';
import { packageVersion } from './version.js';

type Values = Parsed['values'];

/** The reply limits the flags set (docs/fixtures.md "Limits"). */
function limitsFromFlags(values: Values): { maxReplyBytes?: number; maxStreamChunks?: number } {
  const num = (flag: string) => {
    const raw = values[flag];
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--${flag} must be a positive integer, got "${String(raw)}"`);
    return n;
  };
  const limits = { maxReplyBytes: num('max-reply-bytes'), maxStreamChunks: num('max-stream-chunks') };
  try {
    replyLimits({ replyBytes: limits.maxReplyBytes, streamChunks: limits.maxStreamChunks });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return limits;
}

function chaosFromFlags(values: Values): ChaosOptions | undefined {
  const chaos: ChaosOptions = {};
  const num = (flag: string, most = Infinity) => {
    const raw = values[flag];
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (raw === '' || !Number.isFinite(n) || n < 0 || n > most) {
      throw new UsageError(`--${flag} must be a number ${most === Infinity ? '>= 0' : `from 0 to ${most}`}, got "${String(raw)}"`);
    }
    return n;
  };
  const latency = num('latency');
  const drop = num('chaos-drop', 100);
  const limit = num('rate-limit-after');
  if (latency !== undefined) chaos.latencyMs = latency;
  if (drop !== undefined) chaos.dropPct = drop;
  if (limit !== undefined) chaos.rateLimitAfter = limit;
  const terms = values['content-filter'] as string[] | undefined;
  if (terms?.length) chaos.contentFilter = terms;
  return Object.keys(chaos).length ? chaos : undefined;
}

function unknownCommand(command: string): string {
  const guess = command.startsWith('-') ? nearest(command, ['--help', '--version']) : nearest(command, COMMAND_NAMES);
  return `unknown command "${command}"${guess ? `; did you mean "${guess}"?` : ''} (understudy --help lists the commands)`;
}

async function validate(args: string[]): Promise<number> {
  const parsed = parseFlags(args, VALIDATE_FLAGS, 'validate');
  if (parsed.values.help) {
    printLine(commandHelp('validate'));
    return 0;
  }
  const limits = limitsFromFlags(parsed.values);
  return runValidate(parsed.positionals, printLine, { replyBytes: limits.maxReplyBytes, streamChunks: limits.maxStreamChunks });
}

async function drift(args: string[]): Promise<number> {
  const parsed = parseFlags(args, DRIFT_FLAGS, 'drift');
  if (parsed.values.help) {
    printLine(commandHelp('drift'));
    return 0;
  }
  // Loaded only for this command.
  const { runDrift } = await import('./drift.js');
  return runDrift(parsed, printLine);
}

async function serve(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, SERVE_FLAGS, 'serve');
  if (values.help) {
    printLine(commandHelp('serve'));
    return 0;
  }
  const portText = (values.port as string | undefined) ?? '8100';
  const port = Number(portText);
  if (portText === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be an integer 0-65535, got "${portText}"`);
  }
  const limits = limitsFromFlags(values);
  const chaos = chaosFromFlags(values);
  const workersText = (values.workers as string | undefined) ?? '1';
  const workers = workersText === 'auto' ? availableParallelism() : Number(workersText);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw new UsageError(`--workers must be an integer 1-64 or "auto", got "${workersText}"`);
  }
  const record = recordFromFlags(values, workers);
  if (workers > 1 && cluster.isPrimary) return runPrimary(workers, printLine);
  const index = cluster.isWorker ? Number(process.env[WORKER_INDEX_ENV]) : undefined;
  // Positionals after --fixtures FILE are more fixture files (so a shell glob works).
  const fixtures = [...((values.fixtures as string[] | undefined) ?? []), ...positionals];
  const quiet = index !== undefined && index > 0;
  const logFormat = (values.log as string | undefined) ?? 'text';
  if (logFormat !== 'text' && logFormat !== 'json') throw new UsageError(`--log must be text or json, got "${logFormat}"`);
  const server = await runServe(
    {
      host: (values.host as string | undefined) ?? '127.0.0.1',
      port,
      fixtures,
      strict: values.strict === true,
      controlToken: (values['control-token'] as string | undefined) ?? process.env.UNDERSTUDY_CONTROL_TOKEN,
      corsOrigins: (values.cors as string[] | undefined) ?? [],
      allowedHosts: (values['allow-host'] as string[] | undefined) ?? [],
      chaos,
      record,
      replay: values.replay as string | undefined,
      metrics: values['no-metrics'] !== true,
      journalBodies: values['journal-bodies'] === true,
      ...limits,
      ...(index !== undefined && { cluster: { index, workers } }),
      // Every worker logs the requests it answered itself.
      ...(values.quiet !== true && { requestLog: { format: logFormat, write: printLine } }),
    },
    // Only the owner (worker 0) prints; the others would repeat it.
    quiet ? () => {} : printLine,
    quiet ? () => {} : (line) => process.stderr.write(`${line}\n`),
  );
  // A worker whose start failed must leave: its IPC channel would keep it (and the primary) alive.
  if (!server) {
    if (index !== undefined) process.exit(1);
    return 1;
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Graceful: answers in flight get five seconds to finish.
    void server.close({ graceMs: 5000 }).then(() => process.exit(0));
  };
  // Whoever read the output went away (`serve | head -1`): stop as if told to.
  whenPipeCloses(stop);
  // A worker stops when the primary tells it (SIGTERM), edges first; Ctrl-C reaches the whole
  // process group, so a worker leaves SIGINT to the primary.
  if (index === undefined) process.once('SIGINT', stop);
  else process.on('SIGINT', () => {});
  process.once('SIGTERM', stop);
  return -1;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') {
    printLine(generalHelp(packageVersion()));
    return 0;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    printLine(packageVersion());
    return 0;
  }
  if (command === 'help') {
    const topic = rest[0];
    if (topic === undefined) printLine(generalHelp(packageVersion()));
    else if (COMMAND_NAMES.includes(topic)) printLine(commandHelp(topic));
    else throw new UsageError(unknownCommand(topic));
    return 0;
  }
  if (command === 'validate') return validate(rest);
  if (command === 'serve') return serve(rest);
  if (command === 'drift') return drift(rest);
  throw new UsageError(unknownCommand(command));
}

quietOnClosedPipe();
main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`understudy: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`understudy: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
