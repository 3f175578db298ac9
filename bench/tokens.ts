// Token counting: our o200k_base counter (src/core/bpe) against gpt-tokenizer 4.0.0, each in its
// own fresh process, on the mixed corpus of test/support/token-corpus.ts (prose, code, JSON, CJK,
// other scripts, emoji, numbers, whitespace runs). Not part of `npm run bench`; run it alone:
//
//   node --import tsx bench/tokens.ts [--runs N]
//
// Per process: the load (first count of a short text, table or module load included; for ours
// that includes tsx compiling the TypeScript: B4 in bench/startup.ts times it from dist/); one cold
// pass over the corpus (nothing cached, nothing compiled yet); passes over fresh corpora made with
// other seeds (compiled code, caches warm only for what recurs, like words: the steady state on
// text not seen before); passes over the first corpus again (every piece seen before). Both
// implementations cache merged pieces (gpt-tokenizer up to 100k, ours up to 1M characters); the
// per-text cache of src/core/tokens.ts is not used here.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tokenCorpus } from '../test/support/token-corpus.js';

const PASSES = 5;
const SEED = 20_260_101;
const corpus = tokenCorpus(SEED, 6_000, 8);
const texts = corpus.map((s) => s.text);
const chars = texts.reduce((n, t) => n + t.length, 0);
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

interface Run {
  impl: string;
  loadMs: number;
  coldMs: number;
  freshMs: number;
  repeatMs: number;
  tokens: number;
}

async function child(impl: string): Promise<Run> {
  const started = performance.now();
  let count: (text: string) => number;
  if (impl === 'ours') {
    const { countO200k } = await import('../src/core/bpe/o200k.js');
    const { RankTable } = await import('../src/core/bpe/rank-table.js');
    const table = RankTable.fromFile(new URL('../data/o200k_base.bin', import.meta.url));
    count = (text: string) => countO200k(table, text);
  } else {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    const options = { disallowedSpecial: new Set<string>() };
    count = (text: string) => countTokens(text, options);
  }
  count('hello');
  const loadMs = performance.now() - started;
  const fresh = Array.from({ length: PASSES }, (_, i) => tokenCorpus(SEED + 1 + i, 6_000, 8).map((s) => s.text));
  const timed = (list: string[]) => {
    const at = performance.now();
    let tokens = 0;
    for (const text of list) tokens += count(text);
    return { ms: performance.now() - at, tokens };
  };
  const cold = timed(texts);
  const freshMs = median(fresh.map((list) => timed(list).ms));
  const repeat = Array.from({ length: PASSES }, () => timed(texts));
  if (repeat.some((r) => r.tokens !== cold.tokens)) throw new Error('count changed between passes');
  return { impl, loadMs, coldMs: cold.ms, freshMs, repeatMs: median(repeat.map((r) => r.ms)), tokens: cold.tokens };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const only = process.argv[2];
  if (only === 'ours' || only === 'gpt-tokenizer') {
    process.stdout.write(JSON.stringify(await child(only)) + '\n');
    return;
  }
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
  const self = fileURLToPath(import.meta.url);
  const results: Record<string, Run[]> = { ours: [], 'gpt-tokenizer': [] };
  for (let i = 0; i < runs; i++) {
    for (const impl of Object.keys(results)) {
      const out = spawnSync(process.execPath, ['--import', 'tsx', self, impl], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`${impl}: ${out.stderr}`);
      results[impl].push(JSON.parse(out.stdout) as Run);
    }
  }
  const tokens = new Set(Object.values(results).flatMap((r) => r.map((x) => x.tokens)));
  if (tokens.size !== 1) throw new Error(`the implementations disagree on the corpus: ${[...tokens].join(' vs ')} tokens`);
  const [total] = tokens;
  console.log(`corpus: ${corpus.length} samples, ${chars} chars, ${bytes} UTF-8 bytes, ${total} tokens; ${runs} fresh processes each`);
  console.log('medians, ms per pass (MB/s):  load*    cold pass         fresh text        repeated text');
  for (const [impl, list] of Object.entries(results)) {
    const cell = (key: 'coldMs' | 'freshMs' | 'repeatMs') => {
      const ms = median(list.map((r) => r[key]));
      return `${ms.toFixed(1)} (${(bytes / 1e3 / ms).toFixed(1)})`.padEnd(18);
    };
    const load = median(list.map((r) => r.loadMs)).toFixed(1);
    console.log(`${impl.padEnd(30)} ${load.padEnd(8)} ${cell('coldMs')}${cell('freshMs')}${cell('repeatMs')}`.trimEnd());
  }
  console.log('* import and first count; ours from TypeScript under tsx (B4 in bench/startup.ts times dist/)');
}

await main();
