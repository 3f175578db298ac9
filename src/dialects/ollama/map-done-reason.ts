// The neutral finish reason as Ollama's `done_reason`. Ollama has no reason of its own for tool
// calls or a filtered answer: both end with "stop".

import type { FinishReason } from '../../core/model.js';

export function mapDoneReason(reason: FinishReason): string {
  return reason === 'length' ? 'length' : 'stop';
}
