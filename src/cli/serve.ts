// `understudy serve`: the server with fixture files loaded into its default session.

import { formatProblems, loadFixtureFile } from '../engine/fixture-file.js';
import type { ChaosOptions } from '../core/model.js';
import type { FixtureSpec } from '../engine/spec.js';
import { UnderstudyServer } from '../server/understudy-server.js';

export interface ServeOptions {
  host: string;
  port: number;
  fixtures: string[];
  strict: boolean;
  controlToken?: string;
  corsOrigins?: string[];
  allowedHosts?: string[];
  chaos?: ChaosOptions;
  /** In a worker of `--workers N`. */
  cluster?: { index: number; workers: number };
  maxReplyBytes?: number;
  maxStreamChunks?: number;
}

export async function runServe(options: ServeOptions, out: (line: string) => void): Promise<UnderstudyServer | undefined> {
  const fixtures: FixtureSpec[] = [];
  for (const file of options.fixtures) {
    const result = await loadFixtureFile(file, { replyBytes: options.maxReplyBytes, streamChunks: options.maxStreamChunks });
    if (!result.ok) {
      out(formatProblems(result.problems));
      return undefined;
    }
    fixtures.push(result.fixture);
  }
  const server = new UnderstudyServer({
    host: options.host,
    port: options.port,
    fixtures,
    defaultSession: { fallback: options.strict ? 'strict' : 'auto', chaos: options.chaos },
    controlToken: options.controlToken,
    corsOrigins: options.corsOrigins,
    allowedHosts: options.allowedHosts,
    cluster: options.cluster,
    maxReplyBytes: options.maxReplyBytes,
    maxStreamChunks: options.maxStreamChunks,
  });
  let url: string;
  try {
    ({ url } = await server.listen());
  } catch (error) {
    out(`understudy: ${(error as Error).message}`);
    return undefined;
  }
  const scenarios = server.registry.defaultSession.scripts.map((s) => s.name);
  out(`Understudy is listening on ${url}`);
  out(
    `  fixtures: ${options.fixtures.length ? options.fixtures.join(', ') : '(none)'}; scenarios: ${scenarios.length ? scenarios.join(', ') : '(none)'}`,
  );
  out(
    `  unmatched requests: ${options.strict ? 'strict (409 no_match naming the nearest script)' : 'zero-config answers (--strict turns this off)'}`,
  );
  if (options.cluster) {
    out(`  workers: ${options.cluster.workers} processes; every session's state lives in worker 0 (docs/workers.md)`);
  }
  out('');
  out('Point an SDK at it:');
  out(`  new OpenAI({ baseURL: '${server.providerUrl('openai')}', apiKey: 'understudy' })`);
  out(`  new Anthropic({ baseURL: '${server.providerUrl('anthropic')}', apiKey: 'understudy' })`);
  out(`  new GoogleGenAI({ apiKey: 'understudy', httpOptions: { baseUrl: '${server.providerUrl('gemini')}' } })`);
  out('Or call it:');
  out(`  curl ${server.providerUrl('openai')}/chat/completions -H 'Content-Type: application/json' \\`);
  out(`    -d '{"model":"gpt-4o","messages":[{"role":"user","content":"hello"}]}'`);
  out(`Control API: ${url}/_understudy/health, ${url}/_understudy/sessions (docs/control-api.md)`);
  return server;
}
