// B3's reference: a bare node:http server that streams fixed SSE events (captured from Understudy's
// paced answer) at the same pace, one timer per stream, and keeps the same lateness statistics
// Understudy's health endpoint reports (first writes excluded), so memory per open stream and
// pacing error can be set against what node:http itself costs on this machine.
//
// Run as a child: node --import tsx bench/bare-paced-server.ts <config.json>
//   config: { events: string[]; chunksPerSecond: number }

import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { LatenessHistogram } from '../src/transport/lateness.js';
import { CHAT_PATH, serveAsChild, SERVER_OPTIONS } from './scenarios.js';

const config = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as { events: string[]; chunksPerSecond: number };
const gap = 1000 / config.chunksPerSecond;
const events = config.events;
// The same histogram Understudy's scheduler keeps (a fixed 50 KB, not an array growing per write,
// which would count against this server's memory per stream).
const lateness = new LatenessHistogram();
const stats = () => lateness.stats();

const server = createServer(SERVER_OPTIONS, (req, res) => {
  if (req.url === '/_understudy/health') {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ pacing: stats() }));
    return;
  }
  if (req.url === '/_understudy/pacing/reset') {
    req.resume();
    lateness.reset();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ pacing: stats() }));
    return;
  }
  if (req.method !== 'POST' || req.url !== CHAT_PATH) {
    req.resume();
    res.writeHead(404).end();
    return;
  }
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    const start = performance.now();
    let index = 0;
    const next = () => {
      if (res.destroyed) return;
      res.write(events[index]);
      // After the write, as Understudy's scheduler measures it.
      if (index > 0) lateness.record(performance.now() - (start + index * gap));
      index++;
      if (index < events.length) setTimeout(next, Math.max(0, start + index * gap - performance.now()));
      else res.end();
    };
    next();
  });
});

serveAsChild(server);
