import type { FinishReason } from '../../core/model.js';

/** Neutral finish reason → Cohere v1 `finish_reason`. v1 has no reason for tool calls (a turn
 * that calls tools is COMPLETE); a filtered answer is ERROR_TOXIC. */
export function mapFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'ERROR_TOXIC';
    default:
      return 'COMPLETE';
  }
}
