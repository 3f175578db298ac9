// OpenAI's token limits on an embeddings request, as the live API words them: each input within
// the model's context (8192 tokens for the text-embedding-3 models, 8191 for ada-002), and the
// request's inputs together within 300,000 tokens. Models of other families (a host's) have no
// limit here.

import type { NeutralError } from '../../core/errors.js';
import { countTokens } from '../../core/tokens.js';
import type { EmbeddingInput } from '../embeddings-kit/vectors-for.js';

export const MAX_REQUEST_TOKENS = 300_000;

function contextOf(model: string): number | undefined {
  if (model.startsWith('text-embedding-3-')) return 8192;
  if (model.startsWith('text-embedding-ada-002')) return 8191;
  return undefined;
}

/** Each input's tokens (a token list counts its ids). */
export function tokensOfInputs(inputs: readonly EmbeddingInput[]): number[] {
  return inputs.map((input) => (typeof input === 'string' ? countTokens(input) : input.length));
}

/** The refusal of a request over a limit, or undefined. */
export function tokenLimitRefusal(model: string, tokens: readonly number[]): NeutralError | undefined {
  const context = contextOf(model);
  if (context === undefined) return undefined;
  let total = 0;
  for (const count of tokens) {
    if (count > context) {
      return {
        kind: 'invalid_request',
        status: 400,
        type: 'invalid_request_error',
        code: null,
        param: null,
        message: `This model's maximum context length is ${context} tokens, however you requested ${count} tokens (${count} in your prompt; 0 for the completion). Please reduce your prompt; or completion length.`,
      };
    }
    total += count;
  }
  if (total <= MAX_REQUEST_TOKENS) return undefined;
  return {
    kind: 'invalid_request',
    status: 400,
    type: 'max_tokens_per_request',
    code: 'max_tokens_per_request',
    param: null,
    message: `Requested ${total} tokens, max ${MAX_REQUEST_TOKENS} tokens per request`,
  };
}
