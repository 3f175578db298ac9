// What the record-and-replay tests share: an upstream (a second Understudy, standing in for the
// real provider, whose session is found by the credential the application sends), the agent loop
// it answers — a tool call, its result, a second tool call, its result, a closing text — and
// reading what a recording wrote.

import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startUnderstudy, type Understudy } from '../../src/client/index.js';

/** The credential the application sends; it reaches the upstream and must never be written down. */
export const UPSTREAM_KEY = 'sk-upstream-secret-4242';
export const FINAL_TEXT = 'Paris is sunny, 21 °C, and it is noon there.';
/** What the upstream reports for the closing answer: no count Understudy would make itself. */
export const REPORTED_USAGE = { inputTokens: 1234, outputTokens: 56, cachedInputTokens: 1024, reasoningTokens: 0 };
/** A longer answer, for streams whose timing is measured. */
export const STORY = 'Once upon a time a small stand-in learned every line of the play and said each one on cue.';

export interface Upstream {
  mock: Understudy;
  /** Requests the upstream's session received. */
  requests(): Promise<number>;
}

/** An upstream whose scripted agent loop answers the application; `pacing` slows its streams. */
export async function startUpstream(options: { chunksPerSecond?: number } = {}): Promise<Upstream> {
  const mock = await startUnderstudy();
  const session = await mock.session('provider', {
    apiKey: UPSTREAM_KEY,
    fallback: 'strict',
    ...(options.chunksPerSecond && { pacing: { chunksPerSecond: options.chunksPerSecond } }),
  });
  session
    .scenario('loop')
    .onExhausted('restart')
    .whenLatestUser({ contains: 'weather' })
    .callsTool('weather', { city: 'Paris' }, 'call_weather_1')
    .thenWhenToolResult('weather', 'call_weather_1')
    .callsTool('clock', { zone: 'Europe/Paris' }, 'call_clock_2')
    .thenWhenToolResult('clock', 'call_clock_2')
    .replies(FINAL_TEXT, { usage: REPORTED_USAGE });
  session.scenario('story').onExhausted('repeat_last').whenLatestUser({ contains: 'story' }).replies(STORY);
  return {
    mock,
    requests: async () => (await session.journal()).entries.length,
  };
}

export function recordingDir(): string {
  return mkdtempSync(join(tmpdir(), 'understudy-recording-'));
}

/** Every file under the directory, with its text. */
export function recordedFiles(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...recordedFiles(path));
    else out.push({ path, text: readFileSync(path, 'utf8') });
  }
  return out;
}

/** The tool results the application's tools give. */
export function toolResult(name: string): string {
  return name === 'weather' ? '{"temperature":21,"sky":"sunny"}' : '{"time":"12:00"}';
}

export const WEATHER_TOOL = {
  name: 'weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
export const CLOCK_TOOL = {
  name: 'clock',
  description: 'The time in a zone',
  parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
};
