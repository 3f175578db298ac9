import type { FinishReason } from '../../core/model.js';

/** Neutral finish reason → Converse `stopReason`. */
export function mapStopReason(reason: FinishReason): string {
  switch (reason) {
    case 'tool_calls':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'content_filtered';
    default:
      return 'end_turn';
  }
}
