// What `understudy serve` prints when it starts: where it listens, what it loaded, and every
// setting that changes answers (the fallback, pacing, chaos, scripted errors, faults and delays),
// as in force after the fixture files were loaded, with where each came from.

import type { ChaosOptions, Pacing, Reply } from '../core/model.js';
import type { FallbackMode, FixtureSpec } from '../engine/spec.js';

export interface LoadedFixture {
  file: string;
  fixture: FixtureSpec;
}

export interface BannerFacts {
  url: string;
  fixtures: LoadedFixture[];
  /** The default session's fallback in force, and what set it. */
  fallback: { mode: FallbackMode; setBy: string };
  /** The default session's pacing in force, and the file that set it. */
  pacing?: { pacing: Pacing; setBy: string };
  chaos?: ChaosOptions;
  workers?: number;
  record?: { dir: string; mode?: string; upstreams: Record<string, string> };
  /** --replay DIR. */
  replay?: string;
  /** Whether /_understudy/metrics is served. */
  metrics?: boolean;
  /** Whether a control token guards the control API (the dashboard's link then says where it goes). */
  controlToken?: boolean;
  providerUrl(provider: string): string;
}

/** Lines of scripted timing and failures listed before the rest is summed up. */
const SCRIPTED_LINES = 12;

export function bannerLines(facts: BannerFacts): string[] {
  const scenarios = facts.fixtures.flatMap((f) => f.fixture.scenarios.map((s) => s.name));
  const lines = [
    `Understudy is listening on ${facts.url}`,
    `  fixtures: ${facts.fixtures.length ? facts.fixtures.map((f) => f.file).join(', ') : '(none)'}; scenarios: ${scenarios.length ? scenarios.join(', ') : '(none)'}`,
    `  unmatched requests: ${
      facts.fallback.mode === 'strict'
        ? 'strict (409 no_match naming the nearest script)'
        : "zero-config answers (--strict or a fixture's session.fallback: strict turns this off)"
    }${facts.fallback.setBy ? `, set by ${facts.fallback.setBy}` : ''}`,
  ];
  if (facts.pacing) lines.push(`  pacing of every stream: ${describePacing(facts.pacing.pacing)}, set by ${facts.pacing.setBy}`);
  const chaos = facts.chaos && describeChaos(facts.chaos);
  if (chaos) lines.push(`  chaos on every request of the default session: ${chaos}`);
  const scripted = scriptedSettings(facts.fixtures);
  if (scripted.length) {
    lines.push('  scripted timing and failures:');
    for (const line of scripted.slice(0, SCRIPTED_LINES)) lines.push(`    ${line}`);
    if (scripted.length > SCRIPTED_LINES) lines.push(`    … and ${scripted.length - SCRIPTED_LINES} more`);
  }
  if (facts.record) {
    const { dir, mode, upstreams } = facts.record;
    const sent = Object.entries(upstreams).map(([name, url]) => `${name} → ${url}`);
    const what = mode === 'all' ? 'every request' : 'what no script answers';
    lines.push(
      `  recording to ${dir} (mode ${mode ?? 'missing'}): ${what} goes upstream: ${sent.length ? sent.join(', ') : '(none: only sessions that name their own upstreams record)'}`,
    );
  }
  if (facts.replay !== undefined)
    lines.push(`  replaying: each session starts with its recordings from ${facts.replay} (DIR/<session>.yaml)`);
  if (facts.workers) lines.push(`  workers: ${facts.workers} processes; every session's state lives in worker 0 (docs/workers.md)`);
  lines.push(
    '',
    'Point an SDK at it:',
    `  new OpenAI({ baseURL: '${facts.providerUrl('openai')}', apiKey: 'understudy' })`,
    `  new Anthropic({ baseURL: '${facts.providerUrl('anthropic')}', apiKey: 'understudy' })`,
    `  new GoogleGenAI({ apiKey: 'understudy', httpOptions: { baseUrl: '${facts.providerUrl('gemini')}' } })`,
    `  new BedrockRuntimeClient({ endpoint: '${facts.providerUrl('bedrock')}', region: 'us-east-1', credentials: { accessKeyId: 'understudy', secretAccessKey: 'x' }, maxAttempts: 1 })`,
    `  Azure, Groq, Mistral, OpenRouter, DeepSeek, Perplexity: under ${facts.providerUrl('groq').replace(/\/groq$/, '')}/azure, /groq, /mistral, … (docs/dialects/openai-hosts.md)`,
    `  Ollama and Cohere at the same origin (/api/chat, /v2/chat); every wire: docs/dialects/`,
    'Or call it:',
    `  curl ${facts.providerUrl('openai')}/chat/completions -H 'Content-Type: application/json' \\`,
    `    -d '{"model":"gpt-4o","messages":[{"role":"user","content":"hello"}]}'`,
    `Dashboard: ${facts.url}/_understudy/ui/${facts.controlToken ? '#token=<the control token>' : ''}${facts.metrics ? `  Metrics: ${facts.url}/_understudy/metrics` : ''} (docs/dashboard.md)`,
    // Last: tests and scripts wait for this line to know the banner is complete.
    `Control API: ${facts.url}/_understudy/health, ${facts.url}/_understudy/sessions (docs/control-api.md)`,
  );
  return lines;
}

export function describePacing(pacing: Pacing): string {
  const parts: string[] = [];
  if (pacing.ttftMs !== undefined) parts.push(`first token after ${pacing.ttftMs} ms`);
  if (pacing.chunksPerSecond !== undefined) parts.push(`${pacing.chunksPerSecond} events/s`);
  if (pacing.jitterMs !== undefined) parts.push(`jitter ± ${pacing.jitterMs} ms`);
  return parts.length ? parts.join(', ') : 'none (an empty pacing)';
}

/** Every chaos option that is set, in words; undefined when none is. */
export function describeChaos(chaos: ChaosOptions): string | undefined {
  const parts: string[] = [];
  if (chaos.status !== undefined) parts.push(`every answer is a ${chaos.status}`);
  if (chaos.latencyMs !== undefined) {
    parts.push(`latency ${chaos.latencyMs} ms${chaos.jitterPct !== undefined ? ` ± ${chaos.jitterPct} %` : ''} (--latency)`);
  } else if (chaos.jitterPct !== undefined) parts.push(`latency jitter ± ${chaos.jitterPct} %`);
  if (chaos.dropPct !== undefined) parts.push(`${chaos.dropPct} % of requests dropped with a 500 (--chaos-drop)`);
  if (chaos.malformedPct !== undefined) parts.push(`${chaos.malformedPct} % of bodies malformed`);
  if (chaos.trickleMs !== undefined) parts.push(`${chaos.trickleMs} ms between stream events`);
  if (chaos.disconnectPct !== undefined) parts.push(`${chaos.disconnectPct} % of streams cut`);
  if (chaos.rateLimitAfter !== undefined) parts.push(`429 after ${chaos.rateLimitAfter} requests (--rate-limit-after)`);
  if (chaos.contentFilter?.length) {
    parts.push(`content filter on ${chaos.contentFilter.map((t) => JSON.stringify(t)).join(', ')} (--content-filter)`);
  }
  return parts.length ? parts.join('; ') : undefined;
}

/** One line per scenario or step whose answers are paced, delayed, faulted or scripted errors. */
function scriptedSettings(fixtures: LoadedFixture[]): string[] {
  const lines: string[] = [];
  for (const { fixture } of fixtures) {
    for (const scenario of fixture.scenarios) {
      if (scenario.pacing) lines.push(`${scenario.name} (every step): pacing ${describePacing(scenario.pacing)}`);
      const steps = scenario.steps ?? (scenario.replies ?? []).map((reply) => ({ id: undefined, reply }));
      steps.forEach((step, i) => {
        const what = describeReply(step.reply);
        if (what) lines.push(`${scenario.name} ${step.id ?? `step-${i + 1}`}: ${what}`);
      });
    }
  }
  return lines;
}

function describeReply(reply: Reply): string | undefined {
  const parts: string[] = [];
  if (reply.error) {
    const { status, code, inStream } = reply.error;
    parts.push(`error ${status}${code ? ` ${code}` : ''}${inStream ? ' inside the stream' : ''}`);
  }
  if (reply.fault) {
    const { kind, afterBytes, afterChunks, error } = reply.fault;
    const after = afterBytes !== undefined ? `${afterBytes} bytes` : `${afterChunks ?? 1} events`;
    parts.push(`fault ${kind}${kind === 'error' ? ` ${error?.status ?? 500}` : ''} after ${after}`);
  }
  if (reply.pacing) parts.push(`pacing ${describePacing(reply.pacing)}`);
  if (reply.delayMs !== undefined) parts.push(`delay ${reply.delayMs} ms`);
  return parts.length ? parts.join('; ') : undefined;
}
