// What the dialects' answer readers share: the neutral form they read into (core/recorded-answer.ts,
// re-exported for them) and the split of an SSE stream into its events' data.

export type { RecordedAnswer } from '../../core/recorded-answer.js';

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
