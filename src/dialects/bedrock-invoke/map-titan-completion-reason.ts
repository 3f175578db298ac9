import type { FinishReason } from '../../core/model.js';

/** Neutral finish reason → Titan Text `completionReason`. */
export function mapTitanCompletionReason(reason: FinishReason): string {
  switch (reason) {
    case 'length':
      return 'LENGTH';
    case 'content_filter':
      return 'CONTENT_FILTERED';
    default:
      return 'FINISH';
  }
}
