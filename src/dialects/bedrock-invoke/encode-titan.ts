// Titan Text's answers: `{"inputTextTokenCount","results":[{"tokenCount","outputText","completionReason"}]}`
// as JSON; streamed, one chunk per piece of the text, each `{"outputText","index":0,
// "totalOutputTextTokenCount","completionReason","inputTextTokenCount"}` with the prompt's count on
// the first, the answer's count and the reason on the last (null elsewhere), the last closing with
// the invocation metrics. Titan has no reasoning: a scripted reasoning is left out.

import type { Pacing, ResolvedReply } from '../../core/model.js';
import type { EventSource } from '../dialect.js';
import { chunkFrame, shapeFrames } from './chunk-frames.js';
import { invocationMetricsMember, latencyOf, outputTokenCount } from './invocation-metrics.js';
import { mapTitanCompletionReason } from './map-titan-completion-reason.js';

export function encodeTitanJson(reply: ResolvedReply): string {
  return (
    `{"inputTextTokenCount":${reply.usage.inputTokens},"results":[{"tokenCount":${outputTokenCount(reply.usage)},` +
    `"outputText":${JSON.stringify(reply.content ?? '')},"completionReason":${JSON.stringify(mapTitanCompletionReason(reply.finishReason))}}]}`
  );
}

const middleFrames = new WeakMap<object, string[]>();

/** A chunk of the text; the first carries the prompt's count, the last the answer's and the reason. */
function chunkJson(piece: string, first: string, last: string): string {
  return `{"outputText":${JSON.stringify(piece)},"index":0,${last}"inputTextTokenCount":${first}}`;
}

const NOT_LAST = '"totalOutputTextTokenCount":null,"completionReason":null,';

export function encodeTitanStream(reply: ResolvedReply, pacing?: Pacing): EventSource {
  const pieces = reply.content ? reply.chunks.filter((piece) => piece.length > 0) : [];
  if (pieces.length === 0) pieces.push('');
  const last = pieces.length - 1;
  const metrics = invocationMetricsMember(reply.usage, latencyOf(pacing, pieces.length));
  const reason = JSON.stringify(mapTitanCompletionReason(reply.finishReason));
  const closing = `"totalOutputTextTokenCount":${outputTokenCount(reply.usage)},"completionReason":${reason},`;
  // The chunks between the first and the last depend on the reply's shape alone.
  const middle = last > 1 ? shapeFrames(middleFrames, reply, last - 1, (i) => chunkJson(pieces[i + 1], 'null', NOT_LAST)) : undefined;
  return {
    length: pieces.length,
    at(index) {
      if (middle && index > 0 && index < last) return middle[index - 1];
      const first = index === 0 ? String(reply.usage.inputTokens) : 'null';
      if (index !== last) return chunkFrame(chunkJson(pieces[index], first, NOT_LAST));
      const json = chunkJson(pieces[index], first, closing);
      return chunkFrame(`${json.slice(0, -1)}${metrics}}`);
    },
  };
}
