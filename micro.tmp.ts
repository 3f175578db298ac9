import { DIALECTS } from './src/dialects/registry.ts';
import { resolveReply } from './src/engine/resolve.ts';
import type { WireContext, ChatDialect } from './src/dialects/dialect.ts';
const routes = DIALECTS.flatMap((d) => d.routes);
const pick = (op: string) => routes.find((r) => r.operation === op)!.dialect;
const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'What is the weather in Paris today?' }], stream: false };
function wire(op: string, flavour: 'plain' | 'azure', q: Record<string,string>): WireContext {
  return { operation: op, params: { deployment: 'my-gpt4o' }, query: new URLSearchParams(q), headers: {}, state: { sessionId: 's', store: (_n, c) => c(), zeroConfig: () => false, streamFlavour: () => flavour } };
}
function time(label: string, n: number, f: () => void) {
  for (let i = 0; i < n / 5; i++) f();
  const runs: number[] = [];
  for (let r = 0; r < 7; r++) { const t = process.hrtime.bigint(); for (let i = 0; i < n; i++) f(); runs.push(Number(process.hrtime.bigint() - t) / n / 1000); }
  runs.sort((a, b) => a - b);
  console.log(label.padEnd(40), runs[0].toFixed(2), '-', runs[3].toFixed(2), 'µs (min - median of 7)');
}
const cases: [string, ChatDialect, WireContext][] = [
  ['openai', pick('openai.chat.completions'), wire('openai.chat.completions', 'plain', {})],
  ['azure', pick('azure.chat.completions'), wire('azure.chat.completions', 'plain', { 'api-version': '2024-10-21' })],
  ['azure flavour', pick('azure.chat.completions'), wire('azure.chat.completions', 'azure', { 'api-version': '2024-10-21' })],
];
for (const [label, d, w] of cases) time(`decode ${label}`, 50000, () => d.decode(body, w));
for (const [label, d, w] of cases) {
  const req = d.decode({ ...body }, w) as any;
  const reply = resolveReply({ text: 'Hello there, how can I help you today?' }, req, { nextId: () => 'x' });
  const ctx = { wire: w, responseId: 'chatcmpl-aaaa0001', created: 1, model: req.model, requestId: 'r' };
  time(`encodeResponse ${label}`, 50000, () => d.encodeResponse(reply, req, ctx));
  const sreq = d.decode({ ...body, stream: true }, w) as any;
  time(`encodeStream+join ${label}`, 20000, () => { const e = d.encodeStream(reply, sreq, ctx).events; let b = ''; for (let i = 0; i < e.length; i++) b += e.at(i); });
}
