import type { FinishReason } from '../../core/model.js';

/** Neutral finish reason → Cohere `finish_reason`. Cohere has no content-filter reason: a
 * filtered answer ends as ERROR, the reason it gives when generation did not complete. */
export function mapFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'tool_calls':
      return 'TOOL_CALL';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'ERROR';
    default:
      return 'COMPLETE';
  }
}
