import type { FinishReason } from '../../core/model.js';

/** Neutral finish reason → Nova `stopReason`. */
export function mapNovaStopReason(reason: FinishReason): string {
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'content_filtered';
    case 'tool_calls':
      return 'tool_use';
    default:
      return 'end_turn';
  }
}
