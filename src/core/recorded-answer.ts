// A provider's answer read back into neutral terms: what a recorder keeps of an upstream's answer
// to write it as a scripted reply (decision 0017). Each dialect's reader (dialects/*/read-answer.ts)
// is the inverse of its encoders, and its test is the round trip through them.

import type { FinishReason, Usage } from './model.js';

export interface RecordedAnswer {
  /** The answer's text; null when it has none (a tool call alone). */
  content: string | null;
  /** The text as it arrived: a stream's content deltas in order, or the whole text of a JSON answer. */
  chunks: string[];
  /** The calls in order; `id` is '' when the wire carried none (Gemini's function calls usually,
   * Ollama's): the recorder then leaves the id out of the fixture, and replay sends none either. */
  toolCalls: { id: string; name: string; argumentsText: string }[];
  /** The answer's reasoning (thinking), where the wire carries it; null otherwise. */
  reasoning: string | null;
  finishReason: FinishReason | null;
  /** Absent when the answer reported none (a stream without its usage chunk). */
  usage?: Usage;
  /** The answer's own id, where a later request may name it (Responses' `previous_response_id`). */
  responseId?: string;
}
