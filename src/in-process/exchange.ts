// One request of a framework-native model (the AI SDK language model, the LangChain chat model)
// through a session's scripts with no HTTP: the same selection, contract check, reservation,
// journal entry and tool ledger as a request over the wire; a step is consumed once its answer was
// handed to the caller, released if the caller aborted during the step's delay.

import { understudyConflict, type NeutralError } from '../core/errors.js';
import { UnderstudyModelError } from './errors.js';
import type { ChatRequest, ResolvedReply, StreamFault } from '../core/model.js';
import { answerRequest } from '../engine/exchange.js';
import { ABORTED_STATUS, newRecord, type JournalRecord } from '../engine/journal.js';
import type { Session } from '../engine/session.js';

export interface InProcessCall {
  /** What the journal names the call by, e.g. `ai-sdk doGenerate`. */
  route: string;
  /** The operation id journalled, e.g. `ai-sdk.generate`. */
  operation: string;
  signal?: AbortSignal;
}

export interface InProcessAnswer {
  reply: ResolvedReply;
  requestId: string;
  /** Response id, unique in the session, deterministic. */
  responseId: string;
  /** Seconds since the epoch, from the session clock. */
  created: number;
  /** The step's failure part-way through its answer, for the model to act out in its own terms. */
  fault?: StreamFault;
}

const ABORTED = 'the caller aborted before its answer was delivered';

/** Answers a neutral request from the session's scripts, or throws an UnderstudyModelError (an
 * abort during a step's delay throws the signal's reason, and consumes nothing). */
export async function answerInProcess(session: Session, request: ChatRequest, call: InProcessCall): Promise<InProcessAnswer> {
  throwIfAborted(call.signal);
  const generation = session.generation;
  const requestId = session.nextRequestId();
  session.journal.counters.requests++;
  const entry = newRecord(requestId, session.id, call.route, call.operation);
  entry.idNumber = session.lastIdNumber;
  entry.request = request;
  entry.stream = request.stream;

  const answer = answerRequest(session, request, requestId);
  entry.script = answer.script;
  entry.step = answer.step;
  entry.source = answer.source;
  entry.nearMisses = answer.nearMisses;

  if (answer.delayMs > 0 && !(await waitUnlessAborted(answer.delayMs, call.signal))) {
    answer.reservation?.release();
    recordAborted(session, entry);
    throw abortReason(call.signal);
  }
  if (session.generation !== generation) {
    answer.reservation?.release();
    throw fail(
      session,
      entry,
      understudyConflict(
        'superseded',
        'request_superseded',
        'the session was reset or reloaded while this request was in flight; nothing was consumed',
      ),
    );
  }
  if (answer.kind === 'error') {
    answer.reservation?.commit();
    throw fail(session, entry, answer.error);
  }
  answer.afterDelivery?.();
  answer.reservation?.commit();
  entry.status = 200;
  entry.reply = answer.reply;
  entry.usage = answer.reply.usage;
  session.journal.add(entry);
  const done: InProcessAnswer = { reply: answer.reply, requestId, responseId: `resp_${session.nextId()}`, created: session.clock };
  if (answer.fault) done.fault = answer.fault;
  return done;
}

function fail(session: Session, entry: JournalRecord, error: NeutralError): UnderstudyModelError {
  session.journal.counters.errorsReturned++;
  entry.status = error.status;
  entry.error = { code: error.code, message: error.message };
  session.journal.add(entry);
  return new UnderstudyModelError(error);
}

function recordAborted(session: Session, entry: JournalRecord): void {
  session.journal.counters.aborted++;
  entry.status = ABORTED_STATUS;
  entry.error = { code: 'client_closed_request', message: ABORTED };
  session.journal.add(entry);
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException(ABORTED, 'AbortError');
}

/** Waits `ms`; resolves false as soon as the signal aborts. */
function waitUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
