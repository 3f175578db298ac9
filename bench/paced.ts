// B3: many concurrent paced streams from one Understudy child. The parent opens every stream on a
// plain TCP socket (a fixed request, `connection: close`; autocannon cannot hold thousands of long
// responses open at once, and node:http's client costs more per event than the server being
// measured), checks the status line, the chunked framing, the event count and the closing [DONE],
// and measures:
//   - memory per open stream: (the child's RSS while the most streams were open − its RSS before
//     the round) / the streams open at that moment, sampled from /proc every 25 ms;
//   - pacing error as the server sees it: GET /_understudy/health `pacing` (lateness of every paced
//     write against its schedule, first writes excluded), reset right before the measured round;
//   - arrival error as the client sees it (information only: it includes the parent's own event-loop
//     lag): per stream, each event's arrival minus its slot (origin + index × gap), the origin being
//     the stream's best-aligned event, so a stream's earliest-aligned event has error 0.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkAnswer,
  fmt,
  httpCall,
  log,
  openFilesLimit,
  orNull,
  post,
  procCpuMs,
  procStatusKb,
  Samples,
  startChild,
  stopChild,
  streamShape,
  type Child,
} from './harness.js';
import { CHAT_PATH, OPENAI_CHAT, type PacedScenario } from './scenarios.js';

/** Sockets the bench keeps for itself (stdio, IPC, the control requests, node internals). */
const FD_HEADROOM = 256;
/** Streams opened per batch, one batch every BATCH_GAP_MS: at most 4,000 new streams a second.
 * Opening them faster (500 per 25 ms) made the server's p99 pacing error ~225 ms on 2 cores:
 * accepting and answering new requests holds up the writes already due. */
const BATCH = 100;
const BATCH_GAP_MS = 25;
const STREAM_TIMEOUT_MS = 60_000;
const WARMUP_STREAMS = 200;
const BLANK_LINE = Buffer.from('\n\n');
/** Every stream's reads land here in turn (net's `onread`), so a read allocates nothing. */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
/** Bytes kept of each stream's end: enough for the closing [DONE] event and the last chunk. */
const TAIL_BYTES = 32;
/** The chunked encoding's terminating chunk. */
const LAST_CHUNK = '0\r\n\r\n';

export interface PacingStats {
  writes: number;
  p50: number;
  p99: number;
  max: number;
}

export interface PacedRound {
  streams: number;
  completed: number;
  /** ms from the first request to the moment every stream had its response headers. */
  allOpenMs: number | null;
  maxOpen: number;
  /** The /proc sample with the most streams open (the highest RSS among equals). */
  sample: { open: number; rssMB: number; atMs: number } | null;
  durationMs: number;
  serverCpuPct: number | null;
  loadgenCpuPct: number;
  arrival: { events: number; p50Ms: number | null; p99Ms: number | null; maxMs: number | null };
}

export interface PacedResult {
  type: 'paced';
  id: 'B3';
  title: string;
  description: string;
  requestedStreams: number;
  streams: number;
  openFilesLimit: number | null;
  /** Set when ulimit -n forced fewer streams than requested. */
  capNote?: string;
  chunks: number;
  chunksPerSecond: number;
  eventsPerStream: number | null;
  streamBytes: number | null;
  pid: number | null;
  warmup: PacedRound | null;
  rssBeforeMB: number | null;
  round: PacedRound | null;
  peakRssMB: number | null;
  /** (RSS at the sample − RSS before) / streams open at the sample, KB. */
  kbPerOpenStream: number | null;
  /** (peak RSS of the child − RSS before) / streams, KB: an upper bound. */
  kbPerStreamFromPeak: number | null;
  /** Cumulative at the moment every stream of the measured round was open: the opening phase. */
  serverPacingWhileOpening: PacingStats | null;
  /** A second round, reset once every stream was open, read when the first one ended: only
   * paced writes, no new requests arriving. */
  steady: { round: PacedRound; serverPacing: PacingStats | null; windowMs: number | null } | null;
  serverPacing: PacingStats | null;
  /** The same round against a bare node:http server streaming the same bytes at the same pace. */
  reference: { round: PacedRound; kbPerOpenStream: number | null; serverPacing: PacingStats | null; peakRssMB: number | null } | null;
  /** Full mode: a round per stream count, Understudy and the bare reference, whole-round pacing;
   * `workers`: `understudy serve --workers 2` too, when that contender was asked for. */
  capacity: { understudy: CapacityRung[]; workers?: CapacityRung[]; bare: CapacityRung[] } | null;
  goals: { pacingP99Ms: number; kbPerStream: number };
}

export interface CapacityRung {
  streams: number;
  maxOpen: number;
  pacing: PacingStats;
  serverCpuPct: number | null;
}

/** One round of `count` streams per rung, each measured over the whole round. */
async function capacityRounds(
  child: Child,
  scenario: PacedScenario,
  counts: number[],
  eventsPerStream: number,
  label: string,
): Promise<CapacityRung[]> {
  const rungs: CapacityRung[] = [];
  for (const count of counts) {
    await sleep(500);
    await resetPacing(child);
    const round = await driveStreams(child, scenario, count, eventsPerStream);
    const pacing = await health(child);
    rungs.push({ streams: count, maxOpen: round.maxOpen, pacing, serverCpuPct: round.serverCpuPct });
    log(
      `B3 capacity (${label}): ${count} streams, at most ${round.maxOpen} open: pacing p50 ${fmt(pacing.p50, 2)} p99 ${fmt(pacing.p99, 2)} max ${fmt(pacing.max, 1)} ms; server CPU ${fmt(round.serverCpuPct)}%`,
    );
  }
  return rungs;
}

async function health(child: Child): Promise<PacingStats> {
  const answer = await httpCall(child.port, 'GET', '/_understudy/health');
  if (answer.status !== 200) throw new Error(`GET /_understudy/health: status ${answer.status}`);
  const pacing = (JSON.parse(answer.body.toString('utf8')) as { pacing?: PacingStats }).pacing;
  if (!pacing) throw new Error('GET /_understudy/health has no `pacing`');
  return pacing;
}

async function resetPacing(child: Child): Promise<void> {
  const answer = await httpCall(child.port, 'POST', '/_understudy/pacing/reset', '');
  if (answer.status !== 200) throw new Error(`POST /_understudy/pacing/reset: status ${answer.status}`);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Opens `count` streams (in batches), waits for every one to end, checks each, and measures. */
interface Hooks {
  /** Called once every stream has its response headers. */
  allOpen?: () => void;
  /** Called when the first stream ends (after allOpen). */
  firstEnd?: () => void;
}

async function driveStreams(
  child: Child,
  scenario: PacedScenario,
  count: number,
  eventsPerStream: number,
  hooks: Hooks = {},
): Promise<PacedRound> {
  const gap = 1000 / scenario.chunksPerSecond;
  const arrival = new Samples();
  const problems = new Map<string, number>();
  const problem = (what: string) => problems.set(what, (problems.get(what) ?? 0) + 1);
  let open = 0;
  let opened = 0;
  let completed = 0;
  let maxOpen = 0;
  let allOpenAt: number | null = null;
  let sample: PacedRound['sample'] = null;
  const cpuBefore = procCpuMs(child.pid);
  const loadgenBefore = process.cpuUsage();
  const t0 = performance.now();
  const poll = setInterval(() => {
    const rss = procStatusKb(child.pid, 'VmRSS');
    if (rss === null) return;
    if (!sample || open > sample.open || (open === sample.open && rss / 1024 > sample.rssMB))
      sample = { open, rssMB: rss / 1024, atMs: performance.now() - t0 };
  }, 25);

  // The request as bytes, written once per stream on a plain socket: node:http's client costs the
  // parent more CPU per event than the server spends writing it, and on 2 cores that CPU is taken
  // from the server being measured.
  const request = Buffer.from(
    `POST ${CHAT_PATH} HTTP/1.1\r\nhost: 127.0.0.1:${child.port}\r\n` +
      Object.entries(OPENAI_CHAT.headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `content-length: ${Buffer.byteLength(scenario.body)}\r\nconnection: close\r\n\r\n${scenario.body}`,
  );
  const one = () =>
    new Promise<void>((done) => {
      const times = new Float64Array(eventsPerStream + 1);
      let events = 0;
      let head: Buffer | null = Buffer.alloc(0);
      // The stream's last bytes (for the closing check) and whether the last read ended in "\n".
      const tail = Buffer.alloc(TAIL_BYTES);
      let tailLength = 0;
      let endedInNewline = false;
      let isOpen = false;
      let finished = false;
      const finish = (what?: string) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        if (isOpen) open--;
        if (what) problem(what);
        else completed++;
        socket.destroy();
        done();
      };
      // SSE events end at a blank line ("\n\n"); the chunked framing around them adds "\r\n",
      // never "\n\n", so counting blank lines in the raw bytes counts events.
      const take = (bytes: Buffer, now: number) => {
        if (bytes.length === 0) return;
        if (endedInNewline && bytes[0] === 0x0a) {
          if (events < times.length) times[events] = now;
          events++;
        }
        for (let at = bytes.indexOf(BLANK_LINE); at >= 0; at = bytes.indexOf(BLANK_LINE, at + 2)) {
          if (events < times.length) times[events] = now;
          events++;
        }
        endedInNewline = bytes[bytes.length - 1] === 0x0a;
        const k = Math.min(bytes.length, TAIL_BYTES);
        tail.copyWithin(0, k);
        bytes.copy(tail, TAIL_BYTES - k, bytes.length - k);
        tailLength = Math.min(TAIL_BYTES, tailLength + k);
      };
      const onBytes = (bytes: Buffer) => {
        const now = performance.now();
        if (!head) return take(bytes, now);
        head = Buffer.concat([head, bytes]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
        if (!statusLine.startsWith('HTTP/1.1 200 ')) return finish(`status line ${statusLine}`);
        if (!/\r\ntransfer-encoding: chunked\r\n/i.test(head.subarray(0, end + 2).toString('latin1')))
          return finish('response is not chunked');
        const body = head.subarray(end + 4);
        head = null;
        isOpen = true;
        open++;
        opened++;
        if (open > maxOpen) maxOpen = open;
        if (opened === count) {
          allOpenAt = performance.now() - t0;
          hooks.allOpen?.();
        }
        take(body, now);
      };
      // Reads land in one buffer shared by every stream (handled before the next read), and the
      // deadline is one timer per stream, not an idle timeout re-armed on every read.
      const socket = connect({
        port: child.port,
        host: '127.0.0.1',
        onread: {
          buffer: READ_BUFFER,
          callback: (length: number) => {
            onBytes(READ_BUFFER.subarray(0, length));
            return true;
          },
        },
      });
      const timer = setTimeout(() => finish(`not done after ${STREAM_TIMEOUT_MS} ms`), STREAM_TIMEOUT_MS);
      socket.on('error', (e: NodeJS.ErrnoException) => finish(`socket error ${e.code ?? e.message}`));
      socket.on('connect', () => socket.write(request));
      socket.on('end', () => {
        if (head) return finish('connection closed before the response headers');
        const ending = tail.subarray(TAIL_BYTES - tailLength).toString('latin1');
        if (!ending.endsWith(`data: [DONE]\n\n\r\n${LAST_CHUNK}`)) return finish(`stream does not end with [DONE] and the last chunk`);
        if (events !== eventsPerStream) return finish(`${events} events, expected ${eventsPerStream}`);
        // The stream's origin: its best-aligned event; every event's error is measured from there.
        let origin = Infinity;
        for (let j = 0; j < events; j++) origin = Math.min(origin, times[j] - j * gap);
        for (let j = 0; j < events; j++) arrival.push(times[j] - j * gap - origin);
        if (completed === 0 && allOpenAt !== null) hooks.firstEnd?.();
        finish();
      });
    });

  const all: Promise<void>[] = [];
  for (let started = 0; started < count; started += BATCH) {
    for (let i = started; i < Math.min(count, started + BATCH); i++) all.push(one());
    if (started + BATCH < count) await sleep(BATCH_GAP_MS);
  }
  await Promise.all(all);
  const durationMs = performance.now() - t0;
  clearInterval(poll);
  const loadgen = process.cpuUsage(loadgenBefore);
  const cpuAfter = procCpuMs(child.pid);
  if (problems.size)
    throw new Error(
      `B3: ${count - completed} of ${count} streams failed: ${[...problems].map(([what, n]) => `${n} × ${what}`).join('; ')}`,
    );
  const [p50, p99, max] = arrival.percentiles(0.5, 0.99, 1);
  return {
    streams: count,
    completed,
    allOpenMs: allOpenAt,
    maxOpen,
    sample,
    durationMs,
    serverCpuPct: cpuBefore !== null && cpuAfter !== null ? (100 * (cpuAfter - cpuBefore)) / durationMs : null,
    loadgenCpuPct: (100 * (loadgen.user + loadgen.system)) / 1000 / durationMs,
    arrival: { events: arrival.length, p50Ms: orNull(p50), p99Ms: orNull(p99), maxMs: orNull(max) },
  };
}

export async function runPaced(scenario: PacedScenario, quick: boolean, failures: string[], withWorkers = false): Promise<PacedResult> {
  const requested = scenario.streams[quick ? 'quick' : 'full'];
  const chunks = scenario.chunks[quick ? 'quick' : 'full'];
  const limit = openFilesLimit();
  const fits = limit === null || !Number.isFinite(limit) ? requested : Math.max(0, limit - FD_HEADROOM);
  const streams = Math.min(requested, fits);
  const result: PacedResult = {
    type: 'paced',
    id: scenario.id,
    title: scenario.title,
    description: scenario.description,
    requestedStreams: requested,
    streams,
    openFilesLimit: limit === Infinity ? null : limit,
    chunks: chunks.length,
    chunksPerSecond: scenario.chunksPerSecond,
    eventsPerStream: null,
    streamBytes: null,
    pid: null,
    warmup: null,
    rssBeforeMB: null,
    round: null,
    peakRssMB: null,
    kbPerOpenStream: null,
    kbPerStreamFromPeak: null,
    serverPacingWhileOpening: null,
    steady: null,
    serverPacing: null,
    reference: null,
    capacity: null,
    goals: scenario.goals,
  };
  if (streams < requested) {
    result.capNote = `ulimit -n is ${limit}: ${streams} streams instead of ${requested} (each stream is a socket in this process and one in the server child, each needing ${FD_HEADROOM} spare); raise it (ulimit -n ${requested + 2 * FD_HEADROOM}) for the full count`;
    log(`B3: ${result.capNote}`);
  }
  let child: Child | undefined;
  try {
    if (streams < 1) throw new Error(`B3: ulimit -n is ${limit}, too low for any stream`);
    const current = await startChild(
      'understudy',
      [JSON.stringify({ script: 'bench', chunks, pacing: { chunksPerSecond: scenario.chunksPerSecond } })],
      { label: 'understudy' },
    );
    child = current;
    result.pid = current.pid;
    // One stream first: the answer must be the paced reply, and its event count is what every
    // stream is checked against.
    const expected = { text: chunks.join(''), stream: true, chunks: chunks.length };
    const t = performance.now();
    const answer = await post(child.port, scenario.body);
    const tookMs = performance.now() - t;
    const text = answer.body.toString('utf8');
    const wrong = checkAnswer(expected, answer.status, text, true);
    if (wrong) throw new Error(`B3: the paced answer is not the expected reply: ${wrong}`);
    const shape = streamShape(text);
    result.eventsPerStream = shape.events;
    result.streamBytes = answer.body.length;
    const scheduledMs = ((shape.events - 1) * 1000) / scenario.chunksPerSecond;
    if (tookMs < scheduledMs - 5) throw new Error(`B3: one stream took ${fmt(tookMs)} ms, its schedule ${fmt(scheduledMs)} ms: not paced`);
    log(
      `B3: ${shape.events} events (${shape.contentChunks} content chunks), ${answer.body.length} bytes in ${fmt(tookMs)} ms (schedule ${fmt(scheduledMs)} ms)`,
    );

    result.warmup = await driveStreams(child, scenario, Math.min(WARMUP_STREAMS, streams), shape.events);
    await sleep(500);
    const before = procStatusKb(child.pid, 'VmRSS');
    result.rssBeforeMB = before === null ? null : before / 1024;
    await resetPacing(child);
    log(`B3: ${streams} streams at ${scenario.chunksPerSecond} chunks/s, RSS before ${fmt(result.rssBeforeMB, 1)} MB`);
    let opening: Promise<PacingStats> | undefined;
    const round = await driveStreams(child, scenario, streams, shape.events, { allOpen: () => (opening = health(current)) });
    result.round = round;
    result.serverPacing = await health(child);
    result.serverPacingWhileOpening = (await opening) ?? null;
    const hwm = procStatusKb(child.pid, 'VmHWM');
    result.peakRssMB = hwm === null ? null : hwm / 1024;
    const sample = round.sample;
    if (sample && sample.open > 0 && result.rssBeforeMB !== null)
      result.kbPerOpenStream = ((sample.rssMB - result.rssBeforeMB) * 1024) / sample.open;
    if (result.peakRssMB !== null && result.rssBeforeMB !== null)
      result.kbPerStreamFromPeak = ((result.peakRssMB - result.rssBeforeMB) * 1024) / streams;
    const expectedWrites = streams * (shape.events - 1);
    if (result.serverPacing.writes !== expectedWrites)
      log(`B3: note: health counts ${result.serverPacing.writes} paced writes, ${expectedWrites} expected (streams × (events − 1))`);
    log(
      `B3: all ${streams} open after ${fmt(round.allOpenMs)} ms (max ${round.maxOpen} at once); RSS ${fmt(result.rssBeforeMB, 1)} → ${fmt(sample?.rssMB, 1)} MB with ${sample?.open} open = ${fmt(result.kbPerOpenStream, 1)} KB/stream; server pacing p50 ${fmt(result.serverPacing.p50, 2)} p99 ${fmt(result.serverPacing.p99, 2)} max ${fmt(result.serverPacing.max, 1)} ms over ${result.serverPacing.writes} writes; client arrival p50 ${fmt(round.arrival.p50Ms, 2)} p99 ${fmt(round.arrival.p99Ms, 2)} ms; server CPU ${fmt(round.serverCpuPct)}%, client CPU ${fmt(round.loadgenCpuPct)}%`,
    );

    // The steady phase on its own: every stream open, none ended, no request arriving.
    let reset: Promise<number> | undefined;
    let steadyStats: Promise<[PacingStats, number]> | undefined;
    const steadyRound = await driveStreams(current, scenario, streams, shape.events, {
      allOpen: () => (reset = resetPacing(current).then(() => performance.now())),
      firstEnd: () => {
        const at = performance.now();
        steadyStats = health(current).then(async (stats) => [stats, at - (reset ? await reset : at)]);
      },
    });
    const [steadyPacing, windowMs] = steadyStats ? await steadyStats : [null, null];
    result.steady = { round: steadyRound, serverPacing: steadyPacing, windowMs };
    log(
      `B3 steady phase: ${steadyPacing ? `p50 ${fmt(steadyPacing.p50, 2)} p99 ${fmt(steadyPacing.p99, 2)} max ${fmt(steadyPacing.max, 1)} ms over ${steadyPacing.writes} writes in ${fmt(windowMs)} ms` : 'not reached (the first stream ended before the last one opened)'}`,
    );
    const counts = quick ? [] : scenario.capacity.filter((n) => n <= fits);
    const understudyRungs = await capacityRounds(current, scenario, counts, shape.events, 'understudy');
    await stopChild(current);
    child = undefined;
    const workerRungs = withWorkers && counts.length ? await workersCapacity(scenario, chunks, counts, shape.events) : undefined;
    const reference = await referenceRound(scenario, streams, text, shape.events, counts);
    result.reference = reference.result;
    if (counts.length)
      result.capacity = { understudy: understudyRungs, ...(workerRungs && { workers: workerRungs }), bare: reference.capacity };
  } catch (error) {
    const message = (error as Error).message;
    failures.push(message);
    log(`FAILED: ${message}`);
  } finally {
    if (child) await stopChild(child);
  }
  return result;
}

/** The capacity rounds against `understudy serve --workers 2` (health's pacing covers both workers). */
async function workersCapacity(
  scenario: PacedScenario,
  chunks: string[],
  counts: number[],
  eventsPerStream: number,
): Promise<CapacityRung[]> {
  const config = { script: 'bench', chunks, pacing: { chunksPerSecond: scenario.chunksPerSecond }, workers: 2 };
  const workers = await startChild('understudy-workers', [JSON.stringify(config)], { label: 'understudy --workers 2' });
  try {
    await driveStreams(workers, scenario, WARMUP_STREAMS, eventsPerStream);
    return await capacityRounds(workers, scenario, counts, eventsPerStream, 'understudy --workers 2');
  } finally {
    await stopChild(workers);
  }
}

/** The measured round again, against bare-paced-server.ts streaming Understudy's captured events. */
async function referenceRound(
  scenario: PacedScenario,
  streams: number,
  text: string,
  eventsPerStream: number,
  capacity: number[],
): Promise<{ result: PacedResult['reference']; capacity: CapacityRung[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-b3-'));
  const config = join(dir, 'events.json');
  const events = text
    .split('\n\n')
    .filter((e) => e.trim())
    .map((e) => `${e}\n\n`);
  writeFileSync(config, JSON.stringify({ events, chunksPerSecond: scenario.chunksPerSecond }));
  const bare = await startChild('bare-paced', [config], { label: 'bare-paced' });
  try {
    await driveStreams(bare, scenario, Math.min(WARMUP_STREAMS, streams), eventsPerStream);
    await sleep(500);
    const before = procStatusKb(bare.pid, 'VmRSS');
    await resetPacing(bare);
    const round = await driveStreams(bare, scenario, streams, eventsPerStream);
    const serverPacing = await health(bare);
    const hwm = procStatusKb(bare.pid, 'VmHWM');
    const kb =
      round.sample && round.sample.open > 0 && before !== null ? ((round.sample.rssMB - before / 1024) * 1024) / round.sample.open : null;
    log(
      `B3 reference (bare node:http): max ${round.maxOpen} open at once; ${fmt(kb, 1)} KB/stream; pacing p50 ${fmt(serverPacing.p50, 2)} p99 ${fmt(serverPacing.p99, 2)} max ${fmt(serverPacing.max, 1)} ms; server CPU ${fmt(round.serverCpuPct)}%, client CPU ${fmt(round.loadgenCpuPct)}%`,
    );
    const rungs = await capacityRounds(bare, scenario, capacity, eventsPerStream, 'bare node:http');
    return { result: { round, kbPerOpenStream: kb, serverPacing, peakRssMB: hwm === null ? null : hwm / 1024 }, capacity: rungs };
  } finally {
    await stopChild(bare);
    rmSync(dir, { recursive: true, force: true });
  }
}
