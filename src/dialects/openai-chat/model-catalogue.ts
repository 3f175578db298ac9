// A session with a model catalogue of its own (SessionOptions.models) has only those models on
// OpenAI's own Chat Completions routes: any other is OpenAI's 404 for a model the key cannot use.
// Names match exactly (OpenAI has no default tag). Hosts decode with this dialect's decode too, on
// operations of their own (`groq.chat.completions`): they answer any model, as before.

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import type { ChatRequest } from '../../core/model.js';
import type { WireContext } from '../dialect.js';

export function outsideCatalogue(decoded: ChatRequest | NeutralError, wire: WireContext | undefined): ChatRequest | NeutralError {
  if (wire?.operation !== 'openai.chat.completions') return decoded;
  const models = wire.state.models?.();
  if (models === undefined || isNeutralError(decoded) || models.includes(decoded.model)) return decoded;
  return {
    kind: 'not_found',
    status: 404,
    type: 'invalid_request_error',
    code: 'model_not_found',
    param: null,
    message: `The model \`${decoded.model}\` does not exist or you do not have access to it.`,
  };
}
