// Titan Text's answers: `{"inputTextTokenCount","results":[{"tokenCount","outputText","completionReason"}]}`
// as JSON; streamed, one chunk per piece of the text, each `{"outputText","index":0,
// "totalOutputTextTokenCount","completionReason","inputTextTokenCount"}` with the prompt's count on
// the first, the answer's count and the reason on the last (null elsewhere), the last closing with
// the invocation metrics. Titan has no reasoning: a scripted reasoning is left out.

import type { Pacing, ResolvedReply } from '../../core/model.js';
import type { EventSource } from '../dialect.js';
import { chunkSource } from './chunk-frames.js';
import { invocationMetricsMember, latencyOf, outputTokenCount } from './invocation-metrics.js';
import { mapTitanCompletionReason } from './map-titan-completion-reason.js';

export function encodeTitanJson(reply: ResolvedReply): string {
  return (
    `{"inputTextTokenCount":${reply.usage.inputTokens},"results":[{"tokenCount":${outputTokenCount(reply.usage)},` +
    `"outputText":${JSON.stringify(reply.content ?? '')},"completionReason":${JSON.stringify(mapTitanCompletionReason(reply.finishReason))}}]}`
  );
}

export function encodeTitanStream(reply: ResolvedReply, pacing?: Pacing): EventSource {
  const pieces = reply.content ? reply.chunks.filter((piece) => piece.length > 0) : [];
  if (pieces.length === 0) pieces.push('');
  const last = pieces.length - 1;
  const metrics = invocationMetricsMember(reply.usage, latencyOf(pacing, pieces.length));
  const reason = JSON.stringify(mapTitanCompletionReason(reply.finishReason));
  return chunkSource(pieces.length, (index) => {
    const final = index === last;
    return (
      `{"outputText":${JSON.stringify(pieces[index])},"index":0,` +
      `"totalOutputTextTokenCount":${final ? outputTokenCount(reply.usage) : 'null'},"completionReason":${final ? reason : 'null'},` +
      `"inputTextTokenCount":${index === 0 ? reply.usage.inputTokens : 'null'}${final ? metrics : ''}}`
    );
  });
}
