// A step's fault acted out in process. There are no bytes or connections, so each kind becomes
// what a LangChain caller would see of it: `error` throws the fault's UnderstudyModelError,
// `truncate` ends a stream without its last chunk (finish reason, usage), `malformed`, `reset`
// and `close` throw an UnderstudyFaultError, and `stall` waits until the call's signal aborts.
// A whole (non-streamed) answer with any fault fails; a stream delivers its pieces before the fault
// first (`afterChunks`, default 1, or `afterBytes` counted in characters of text and arguments).

import type { AIMessageChunk } from '@langchain/core/messages';
import type { StreamFault } from '../../core/model.js';
import { faultFailure, stalled } from '../act-out-fault.js';

/** Fails the call as the fault says (a whole answer, or a stream after its delivered pieces);
 * returns only for a stream's `truncate`, which ends quietly. */
export async function actOut(fault: StreamFault, signal: AbortSignal | undefined, streaming: boolean): Promise<void> {
  if (fault.kind === 'stall') return stalled(signal);
  if (fault.kind === 'truncate' && streaming) return;
  throw faultFailure({ ...fault, kind: fault.kind });
}

/** The chunks delivered before the fault. */
export function beforeFault(chunks: AIMessageChunk[], fault: StreamFault): AIMessageChunk[] {
  if (fault.afterBytes === undefined) return chunks.slice(0, fault.afterChunks ?? 1);
  let left = fault.afterBytes;
  const delivered: AIMessageChunk[] = [];
  for (const chunk of chunks) {
    if (left <= 0) break;
    const size = weight(chunk);
    if (size <= left) delivered.push(chunk);
    else delivered.push(cut(chunk, left));
    left -= size;
  }
  return delivered;
}

function weight(chunk: AIMessageChunk): number {
  const text = typeof chunk.content === 'string' ? chunk.content.length : 0;
  const args = chunk.tool_call_chunks?.reduce((n, c) => n + (c.args?.length ?? 0), 0) ?? 0;
  return text + args;
}

function cut(chunk: AIMessageChunk, size: number): AIMessageChunk {
  const content = typeof chunk.content === 'string' ? chunk.content.slice(0, size) : chunk.content;
  const tool_call_chunks = chunk.tool_call_chunks?.map((c) => ({ ...c, args: c.args?.slice(0, size) }));
  return new (chunk.constructor as typeof AIMessageChunk)({ id: chunk.id, content, ...(tool_call_chunks && { tool_call_chunks }) });
}
