// CountTokens (`POST /model/{modelId}/count-tokens`): `{"input":{"converse":{…}}}` or
// `{"input":{"invokeModel":{"body":"<base64>"}}}` → `{"inputTokens":n}`, counted by the dialect
// whose operation the input is written for, with the rules its answers' usage is counted by. It
// answers from the request alone (an info route: no script, nothing consumed or journalled).

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import type { ChatDialect, EncodedBody, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { isObject } from '../wire-kit/values.js';
import { refusalOr, reject } from '../wire-kit/wire-error.js';
import { modelIdOf, requestIdHeader } from './model-routes.js';
import { expectString, fail, onlyMembers, requiredMember, unionMember } from './wording.js';

/** Counts the input tokens of one kind of input (its members, at `path`), or refuses it with a
 * WireError (the wording module's checks). */
export type InputCounter = (input: Record<string, unknown>, path: string, modelId: string) => number;

export interface TokenCounters {
  /** Whose error shape the route's refusals take. */
  dialect: ChatDialect;
  converse: InputCounter;
  /** The InvokeModel dialect's counter of a model-native body (the body's text, decoded here from
   * the input's base64 `body`): its prompt tokens, or the refusal InvokeModel would answer. Until it
   * is given, such an input is refused with a ValidationException saying so. */
  invokeModel?: (modelId: string, bodyText: string) => number | NeutralError;
}

const INVOKE_MEMBERS = new Set(['body']);

const REQUEST_MEMBERS = new Set(['input']);
const INPUT_KINDS = ['converse', 'invokeModel'];

function count(ask: InfoAsk, counters: TokenCounters): number | NeutralError {
  return refusalOr(() => {
    const modelId = modelIdOf({ params: ask.params ?? {} });
    const body = ask.body;
    if (!isObject(body)) fail('', 'The request body must be a JSON object.');
    onlyMembers(body, REQUEST_MEMBERS, '');
    const input = requiredMember(body, 'input', '');
    if (!isObject(input))
      fail('input', "1 validation error detected: Value at 'input' failed to satisfy constraint: Member must be a structure");
    const kind = unionMember(input, INPUT_KINDS, 'input');
    const members = input[kind];
    if (!isObject(members))
      fail(
        `input.${kind}`,
        `1 validation error detected: Value at 'input.${kind}' failed to satisfy constraint: Member must be a structure`,
      );
    if (kind === 'converse') return counters.converse(members, 'input.converse', modelId);
    if (!counters.invokeModel)
      fail('input.invokeModel', 'Understudy does not count InvokeModel bodies yet; count the input as input.converse instead.');
    onlyMembers(members, INVOKE_MEMBERS, 'input.invokeModel');
    const encoded = expectString(requiredMember(members, 'body', 'input.invokeModel'), 'input.invokeModel.body');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) fail('input.invokeModel.body', 'The body must be base64-encoded bytes.');
    const counted = counters.invokeModel(modelId, Buffer.from(encoded, 'base64').toString('utf8'));
    if (isNeutralError(counted)) reject(counted);
    return counted;
  });
}

function answer(ask: InfoAsk, counters: TokenCounters): EncodedBody {
  const requestId = ask.requestId ?? '';
  const counted = count(ask, counters);
  if (isNeutralError(counted)) return counters.dialect.encodeError(counted, { requestId });
  return {
    status: 200,
    headers: { 'content-type': 'application/json', ...requestIdHeader(requestId) },
    body: `{"inputTokens":${counted}}`,
  };
}

/** The CountTokens routes (and under `/bedrock`). */
export function countTokensRoutes(counters: TokenCounters): InfoRouteSpec[] {
  return ['', '/bedrock'].map((prefix) => ({
    method: 'POST' as const,
    path: `${prefix}/model/{modelId}/count-tokens`,
    dialect: counters.dialect,
    answer: (ask: InfoAsk) => answer(ask, counters),
  }));
}
