// What every embeddings route answers with, whatever its wire: each input's vector — scripted by
// the session's fixture, or derived from the text and model — and the request as the journal
// keeps it. Shared by the providers' embeddings routes; their chat routes never load it.

import { isNeutralError, understudyConflict, type NeutralError } from '../../core/errors.js';
import { defaultDimensions, derivedVector } from '../../core/embedding-vectors.js';
import type { ChatRequest, Usage } from '../../core/model.js';
import { countTokens } from '../../core/tokens.js';
import type { DialectState, InfoAnswer, InfoAsk } from '../dialect.js';

/** One input: its text, or (OpenAI's token arrays) the token ids the request sent. */
export type EmbeddingInput = string | readonly number[];

export interface EmbeddingAsk {
  model: string;
  inputs: readonly EmbeddingInput[];
  /** The dimensions the request asked for; the model family's default when undefined. */
  dimensions: number | undefined;
}

/** A token array's text for derivation and the journal: its ids, so equal arrays agree. */
function textOf(input: EmbeddingInput): string {
  return typeof input === 'string' ? input : `tokens:${input.join(',')}`;
}

/** The vectors of every input; the scripted error of the first input the fixture gives one; or a
 * 409 fixture_mismatch when a scripted vector's length differs from the dimensions the request
 * asked for (the script and the request disagree). */
export function vectorsFor(ask: EmbeddingAsk, state: DialectState): Float32Array[] | NeutralError {
  const vectors: Float32Array[] = [];
  const dimensions = ask.dimensions ?? defaultDimensions(ask.model);
  for (const input of ask.inputs) {
    const scripted = typeof input === 'string' ? state.scriptedVector?.(input, ask.model) : undefined;
    if (isNeutralError(scripted)) return scripted;
    if (scripted && ask.dimensions !== undefined && scripted.length !== ask.dimensions) {
      return understudyConflict(
        'mismatch',
        'fixture_mismatch',
        `the scripted vector for input ${JSON.stringify(input.slice(0, 80))} has ${scripted.length} dimensions, but the request asked for ${ask.dimensions}.`,
      );
    }
    vectors.push(scripted ?? derivedVector(textOf(input), ask.model, dimensions));
  }
  return vectors;
}

/** The tokens the inputs hold (a token array counts its ids), for usage. */
export function inputTokensOf(inputs: readonly EmbeddingInput[]): number {
  let tokens = 0;
  for (const input of inputs) tokens += typeof input === 'string' ? countTokens(input) : input.length;
  return tokens;
}

/** The request as the journal keeps it: each input a user message, in order, so the journal and
 * verify() read it as they read a chat request. */
export function journalRequest(model: string, inputs: readonly EmbeddingInput[]): ChatRequest {
  return {
    model,
    messages: inputs.map((input) => ({ role: 'user', parts: [{ type: 'text', text: textOf(input) }] })),
    tools: [],
    toolChoice: { type: 'none' },
    parallelToolCalls: false,
    output: { type: 'text' },
    stream: false,
    streamUsage: false,
    promptCaching: 'none',
  };
}

export function inputUsage(inputTokens: number): Usage {
  return { inputTokens, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
}

/** An embeddings route's answer with the delay and the fault its fixture scripts for the request's
 * inputs; a request refused for what it says (a 400) gets neither. */
export function withScriptedAct(answer: (ask: InfoAsk) => InfoAnswer): (ask: InfoAsk) => InfoAnswer {
  return (ask) => {
    const answered = answer(ask);
    const request = answered.journal?.request;
    const error = answered.journal?.error;
    if (!request || !ask.state.embeddingAct || (error && error.kind !== 'scripted')) return answered;
    const texts = request.messages.map((message) => {
      const part = message.parts[0];
      return part?.type === 'text' ? part.text : '';
    });
    const act = ask.state.embeddingAct(texts, request.model);
    return act ? { ...answered, act } : answered;
  };
}
