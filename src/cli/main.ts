#!/usr/bin/env node
// The `understudy` command.

import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { runPrimary } from '../cluster/primary.js';
import { WORKER_INDEX_ENV } from '../cluster/protocol.js';
import type { ChaosOptions } from '../core/model.js';
import { replyLimits } from '../engine/reply-limits.js';
import { runServe } from './serve.js';
import { runValidate } from './validate.js';

const USAGE = `usage:
  understudy serve [--host 127.0.0.1] [--port 8100] [--fixtures FILE...] [--strict]
                   [--control-token TOKEN] [--cors ORIGIN...] [--allow-host NAME...]
                   [--latency MS] [--chaos-drop PCT] [--rate-limit-after N] [--content-filter TERM...]
                   [--workers N|auto]
  understudy validate FILE...
  reply limits, for both: [--max-reply-bytes N] [--max-stream-chunks N]`;

const LIMIT_FLAGS = {
  'max-reply-bytes': { type: 'string' },
  'max-stream-chunks': { type: 'string' },
} as const;

/** The reply limits the flags set (docs/fixtures.md "Limits"), or undefined after saying on
 * stderr why they cannot be used (bad usage). */
function limitsFromFlags(values: Record<string, unknown>): { maxReplyBytes?: number; maxStreamChunks?: number } | undefined {
  const num = (flag: string) => {
    const raw = values[flag];
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`--${flag} must be a positive integer, got "${String(raw)}"`);
    return n;
  };
  try {
    const limits = { maxReplyBytes: num('max-reply-bytes'), maxStreamChunks: num('max-stream-chunks') };
    replyLimits({ replyBytes: limits.maxReplyBytes, streamChunks: limits.maxStreamChunks });
    return limits;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return undefined;
  }
}

function chaosFromFlags(values: Record<string, unknown>): ChaosOptions | undefined {
  const chaos: ChaosOptions = {};
  const num = (flag: string) => {
    const raw = values[flag];
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${flag} must be a number >= 0, got "${String(raw)}"`);
    return n;
  };
  const latency = num('latency');
  const drop = num('chaos-drop');
  const limit = num('rate-limit-after');
  if (latency !== undefined) chaos.latencyMs = latency;
  if (drop !== undefined) chaos.dropPct = drop;
  if (limit !== undefined) chaos.rateLimitAfter = limit;
  const terms = values['content-filter'] as string[] | undefined;
  if (terms?.length) chaos.contentFilter = terms;
  return Object.keys(chaos).length ? chaos : undefined;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const print = (line: string) => process.stdout.write(`${line}\n`);
  if (command === 'validate') {
    let parsed;
    try {
      parsed = parseArgs({ args: rest, allowPositionals: true, options: LIMIT_FLAGS });
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
      return 2;
    }
    const limits = limitsFromFlags(parsed.values);
    if (!limits) return 2;
    return runValidate(parsed.positionals, print, { replyBytes: limits.maxReplyBytes, streamChunks: limits.maxStreamChunks });
  }
  if (command === 'serve') {
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          host: { type: 'string', default: '127.0.0.1' },
          port: { type: 'string', default: '8100' },
          fixtures: { type: 'string', multiple: true, default: [] },
          strict: { type: 'boolean', default: false },
          'control-token': { type: 'string' },
          cors: { type: 'string', multiple: true, default: [] },
          'allow-host': { type: 'string', multiple: true, default: [] },
          latency: { type: 'string' },
          'chaos-drop': { type: 'string' },
          'rate-limit-after': { type: 'string' },
          'content-filter': { type: 'string', multiple: true, default: [] },
          workers: { type: 'string', default: '1' },
          ...LIMIT_FLAGS,
        },
      });
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
      return 2;
    }
    const port = Number(parsed.values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(`--port must be an integer 0-65535, got "${parsed.values.port}"\n`);
      return 2;
    }
    const limits = limitsFromFlags(parsed.values);
    if (!limits) return 2;
    const workers = parsed.values.workers === 'auto' ? availableParallelism() : Number(parsed.values.workers);
    if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
      process.stderr.write(`--workers must be an integer 1-64 or "auto", got "${parsed.values.workers}"\n`);
      return 2;
    }
    if (workers > 1 && cluster.isPrimary) return runPrimary(workers, print);
    const index = cluster.isWorker ? Number(process.env[WORKER_INDEX_ENV]) : undefined;
    // Positionals after --fixtures FILE are more fixture files (so a shell glob works).
    const fixtures = [...(parsed.values.fixtures ?? []), ...parsed.positionals];
    const server = await runServe(
      {
        host: parsed.values.host ?? '127.0.0.1',
        port,
        fixtures,
        strict: parsed.values.strict ?? false,
        controlToken: parsed.values['control-token'] ?? process.env.UNDERSTUDY_CONTROL_TOKEN,
        corsOrigins: parsed.values.cors ?? [],
        allowedHosts: parsed.values['allow-host'] ?? [],
        chaos: chaosFromFlags(parsed.values),
        ...limits,
        ...(index !== undefined && { cluster: { index, workers } }),
      },
      // Only the owner (worker 0) prints; the others would repeat it.
      index !== undefined && index > 0 ? () => {} : print,
    );
    // A worker whose start failed must leave: its IPC channel would keep it (and the primary) alive.
    if (!server) {
      if (index !== undefined) process.exit(1);
      return 1;
    }
    const stop = () => {
      // Graceful: answers in flight get five seconds to finish.
      void server.close({ graceMs: 5000 }).then(() => process.exit(0));
    };
    // A worker stops when the primary tells it (SIGTERM), edges first; Ctrl-C reaches the whole
    // process group, so a worker leaves SIGINT to the primary.
    if (index === undefined) process.once('SIGINT', stop);
    else process.on('SIGINT', () => {});
    process.once('SIGTERM', stop);
    return -1;
  }
  process.stderr.write(`${command ? `unknown command "${command}"\n` : ''}${USAGE}\n`);
  return command === undefined || command === '--help' || command === 'help' ? 0 : 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`understudy: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
