// Neutral finish reasons as Gemini names them. Gemini has no "tool calls" reason: an answer made
// of function calls ends with STOP like any other.

import type { FinishReason } from '../../core/model.js';

export function mapGeminiFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    case 'stop':
    case 'tool_calls':
    default:
      return 'STOP';
  }
}
