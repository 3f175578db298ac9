// One request's path through the engine: select a step, check its reply against the request's
// contract, reserve it, and resolve it. Runs synchronously, so selection and reservation can
// never interleave with another request.

import { checkReplyContract } from '../core/contract.js';
import { understudyConflict, type NeutralError } from '../core/errors.js';
import type { ChatRequest, Pacing, ResolvedReply, StreamFault, Usage } from '../core/model.js';
import { countInputTokens } from '../core/tokens.js';
import type { NearMiss } from './journal.js';
import { resolveReply, scriptsCache } from './resolve.js';
import { reserve, type Reservation } from './script.js';
import { explainMiss, nearMissesOf, selectStep } from './select.js';
import type { Session } from './session.js';
import { zeroConfigAnswer } from './zero-config.js';

export type AnswerSource = 'script' | 'repeat_last' | 'restart' | 'replay' | 'zero_config';

interface Attribution {
  script?: string;
  step?: string;
  source?: AnswerSource;
  /** For no_match, and for zero-config answers to requests that nearly matched a scenario. */
  nearMisses?: NearMiss[];
}

export type Answer =
  | (Attribution & {
      kind: 'reply';
      reply: ResolvedReply;
      delayMs: number;
      reservation?: Reservation;
      /** Run once the reply was delivered (warms the prompt cache). */
      afterDelivery?: () => void;
      pacing?: Pacing;
      fault?: StreamFault;
    })
  | (Attribution & {
      kind: 'error';
      error: NeutralError;
      delayMs: number;
      reservation?: Reservation;
      inputTokens: number;
    });

export function answerRequest(session: Session, request: ChatRequest, requestId = '', fallback = session.fallback): Answer {
  const selection = selectStep(session.scriptsFor(request), request);

  if (selection.kind === 'exhausted') {
    session.journal.counters.exhausted++;
    return {
      kind: 'error',
      error: understudyConflict('exhausted', 'scenario_exhausted', selection.message),
      delayMs: 0,
      script: selection.script.name,
      inputTokens: countInputTokens(request),
    };
  }

  if (selection.kind === 'none') {
    if (fallback === 'auto') return zeroConfig(session, request, requestId);
    session.journal.counters.unmatched++;
    const miss = explainMiss(session.scripts, request);
    return {
      kind: 'error',
      error: understudyConflict('no_match', 'no_match', miss.message),
      delayMs: 0,
      inputTokens: countInputTokens(request),
      nearMisses: miss.nearMisses,
    };
  }

  const { script, step, mode } = selection;
  const where = { script: script.name, step: step.id, source: mode } as const;
  const reason = checkReplyContract(request, step.reply);
  if (reason !== null) {
    session.journal.counters.mismatched++;
    return {
      kind: 'error',
      error: understudyConflict('mismatch', 'fixture_mismatch', `scenario "${script.name}" step "${step.id}": ${reason}`),
      delayMs: 0,
      inputTokens: countInputTokens(request),
      ...where,
    };
  }

  const reservation = reserve(script, step, mode, session.journal.counters);
  const delayMs = step.reply.delayMs ?? 0;
  if (step.reply.error) {
    const e = step.reply.error;
    return {
      kind: 'error',
      error: {
        kind: 'scripted',
        status: e.status,
        code: e.code ?? null,
        type: e.type,
        message: e.message,
        headers: e.headers,
        inStream: e.inStream,
        ...(e.extra && { extra: e.extra }),
      },
      delayMs,
      reservation,
      inputTokens: countInputTokens(request),
      ...where,
    };
  }
  const reply = resolveReply(step.reply, request, session);
  return afterDelivery(session, request, requestId, step.reply.usage, {
    kind: 'reply',
    reply,
    delayMs,
    reservation,
    pacing: overPacing(session.pacing, step.reply.pacing),
    fault: step.reply.fault,
    script: where.script,
    step: where.step,
    source: where.source,
  });
}

function zeroConfig(session: Session, request: ChatRequest, requestId: string): Answer {
  // Only sessions with scripts can have near misses; a pure zero-config session pays nothing.
  const nearMisses = session.scripts.length > 0 ? nearMissesOf(session.scripts, request) : undefined;
  const hasNearMisses = nearMisses !== undefined && nearMisses.length > 0;
  if (hasNearMisses) session.journal.counters.nearMisses++;
  const answer = zeroConfigAnswer(request);
  if (answer.refusal !== undefined) {
    session.journal.counters.mismatched++;
    return {
      kind: 'error',
      error: understudyConflict('mismatch', 'zero_config_unsatisfiable', answer.refusal),
      delayMs: 0,
      inputTokens: countInputTokens(request),
      source: 'zero_config',
      ...(hasNearMisses && { nearMisses }),
    };
  }
  return afterDelivery(session, request, requestId, undefined, {
    kind: 'reply',
    reply: resolveReply(answer.reply, request, session, true),
    delayMs: 0,
    pacing: session.pacing,
    source: 'zero_config',
    ...(hasNearMisses && { nearMisses }),
  });
}

/** Reports the cached part of the prompt now; once the reply is delivered, warms the cache and
 * records the tool results the request carried and the tool calls the reply made. Nothing of this
 * happens for replies that never arrive, nor for requests refused (a 409 records no result). */
function afterDelivery(
  session: Session,
  request: ChatRequest,
  requestId: string,
  scripted: Partial<Usage> | undefined,
  answer: Extract<Answer, { kind: 'reply' }>,
): Answer {
  const usage = answer.reply.usage;
  // A scripted prompt size is not the request's: the cache is probed by the counted one.
  const probe = session.promptCache.probe(request, scripted?.inputTokens === undefined ? usage.inputTokens : undefined);
  if (probe && !(scripted && scriptsCache(scripted))) {
    // Within a scripted prompt size, which may be smaller than the request's.
    usage.cachedInputTokens = Math.min(probe.cachedTokens, usage.inputTokens);
    const writeTokens = Math.min(probe.writeTokens, usage.inputTokens - usage.cachedInputTokens);
    if (writeTokens > 0) usage.cacheWriteTokens = writeTokens;
  }
  const calls = answer.reply.toolCalls.length > 0;
  const results = session.toolLedger.awaitsResults;
  if (probe || calls || results) {
    answer.afterDelivery = () => {
      if (probe) session.promptCache.warm(probe);
      // Results first: they answer calls made before this reply, whose own calls may reuse an id.
      if (results) session.toolLedger.recordResults(request, requestId);
      if (calls) session.toolLedger.recordCalls(answer.reply, requestId);
    };
  }
  return answer;
}

/** A step's pacing over the session's, field by field (a scenario's is already under the step's:
 * script.ts): each level overrides only the fields it sets. */
function overPacing(session: Pacing | undefined, step: Pacing | undefined): Pacing | undefined {
  if (!session) return step;
  if (!step) return session;
  return { ...session, ...step };
}
