// A provider's answer read back into neutral terms: what a recorder keeps of an upstream's answer
// to write it as a scripted reply (decision 0017). Each dialect's reader is the inverse of its
// encoders, and its test is the round trip through them.

import type { FinishReason, Usage } from '../../core/model.js';

export interface RecordedAnswer {
  /** The answer's text; null when it has none (a tool call alone). */
  content: string | null;
  /** The text as it arrived: a stream's content deltas in order, or the whole text of a JSON answer. */
  chunks: string[];
  /** `id` is '' when the wire carried none (Gemini's function calls usually, Ollama's): the
   * recorder then leaves the id out of the fixture, and replay sends none either. */
  toolCalls: { id: string; name: string; argumentsText: string }[];
  /** The answer's reasoning (thinking), where the wire carries it; null otherwise. */
  reasoning: string | null;
  finishReason: FinishReason | null;
  /** Absent when the answer reported none (a stream without its usage chunk). */
  usage?: Usage;
}

/** The data of each event of an SSE stream, in order (its `data:` lines joined; events without
 * data left out). Lines may end in CRLF (Gemini's do). */
export function sseData(text: string): string[] {
  const out: string[] = [];
  for (const event of text.replace(/\r\n?/g, '\n').split('\n\n')) {
    const data = event
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data !== '') out.push(data);
  }
  return out;
}
