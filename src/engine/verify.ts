// verify(): what a test should hear about at its end — unused steps and every request that was
// not answered from a script as planned.

import { latestUserText } from '../core/conversation.js';
import type { ChatRequest, JsonValue } from '../core/model.js';
import { jsonEquals } from '../core/schema.js';
import { isPresetName, PRESET_NAME_LIST, presetValueProblems } from '../core/preset-copy.js';
import { nearest } from './fixture-words.js';
import { preview } from './predicates.js';
import { isPresetFixture, type PresetFixtureShape } from './preset-fixture.js';
import type { JournalEntry } from './journal.js';
import type { Session } from './session.js';
import type { ToolCallRecord } from './tool-ledger.js';

/** What the test expects of the tools the application was asked to call and the results it sent:
 * a call by tool name or by preset, or a preset fixture (`presets.weather.success(...)`), which
 * expects its call (name, id, arguments) and its result. */
export type ToolExpectation = NamedToolExpectation | PresetToolExpectation | (PresetFixtureShape & { times?: number });

export interface NamedToolExpectation {
  name: string;
  id?: string;
  /** Arguments of the call, compared as JSON (key order does not matter). */
  arguments?: JsonValue;
  /** The result the application sent back: a JSON value (compared structurally) or exact text. */
  result?: JsonValue;
  /** Exactly this many matching calls (default: at least one). */
  times?: number;
}

/** A call to a preset (its function name): arguments checked against its parameters schema, a
 * result against its result schema or the error envelope's, compared structurally. */
export interface PresetToolExpectation extends Omit<NamedToolExpectation, 'name'> {
  preset: string;
  name?: undefined;
}

export interface VerifyExpectations {
  toolCalled?: ToolExpectation[];
  toolNotCalled?: string[];
  /** These tools were first called in this order (other calls may come between). */
  toolOrder?: string[];
  /** Zero-config answers to requests that nearly matched a scenario fail verification (by
   * default they are reported as warnings and `ok` stays true). */
  failOnNearMiss?: boolean;
}

export interface VerifyProblem {
  kind:
    | 'unused_step'
    | 'no_match'
    | 'fixture_mismatch'
    | 'scenario_exhausted'
    | 'zero_config_unsatisfiable'
    | 'invalid_request'
    | 'tool_expectation'
    | 'near_miss';
  message: string;
  requestId?: string;
  scenario?: string;
  step?: string;
}

export interface VerifyReport {
  ok: boolean;
  problems: VerifyProblem[];
  /** Near misses answered by zero-config, when `failOnNearMiss` is not set: reported, not failed. */
  warnings: VerifyProblem[];
  /** One readable block, for assertion messages. */
  report: string;
}

const CODE_TO_KIND: Record<string, VerifyProblem['kind']> = {
  no_match: 'no_match',
  fixture_mismatch: 'fixture_mismatch',
  scenario_exhausted: 'scenario_exhausted',
  zero_config_unsatisfiable: 'zero_config_unsatisfiable',
};

function summarize(request: ChatRequest | undefined): string {
  if (!request) return '';
  const user = latestUserText(request);
  const tools = request.tools.length ? `, tools ${request.tools.map((t) => t.name).join(', ')}` : '';
  return `\n     request: model ${preview(request.model)}, ${request.messages.length} messages, latest user ${user === undefined ? '(none)' : preview(user)}${tools}`;
}

function describeCall(call: ToolCallRecord): string {
  const result = call.result === undefined ? 'no result yet' : `result ${preview(call.result)}`;
  return `${call.name}(${call.argumentsText}) id ${call.id}, ${result}`;
}

function resultMatches(want: JsonValue, have: string | undefined): boolean {
  if (have === undefined) return false;
  if (typeof want === 'string' && want === have) return true;
  try {
    return jsonEquals(JSON.parse(have), want);
  } catch {
    return false;
  }
}

/** An expectation as a named one, or what is wrong with it (an unknown preset, a value its schema refuses). */
function asNamed(want: ToolExpectation): { want: NamedToolExpectation; label: string } | { problem: string } {
  if (isPresetFixture(want)) {
    const { call, result, times } = want;
    const named: NamedToolExpectation = { name: call.name, id: call.id, result: result as JsonValue };
    if (call.arguments !== undefined) named.arguments = call.arguments as JsonValue;
    if (times !== undefined) named.times = times;
    return { want: named, label: `preset "${call.name}"` };
  }
  if (!('preset' in want) || want.preset === undefined) return { want: want as NamedToolExpectation, label: `tool "${want.name}"` };
  const { preset, ...rest } = want;
  if (!isPresetName(preset)) {
    const guess = nearest(preset, PRESET_NAME_LIST);
    return { problem: `expected a call to preset "${preset}", which is not a preset${guess ? ` (did you mean "${guess}"?)` : ''}` };
  }
  const refused: string[] = [];
  if (rest.arguments !== undefined) {
    const problems = presetValueProblems(preset, 'arguments', rest.arguments);
    if (problems.length) refused.push(`arguments the preset's parameters schema refuses (${problems.join('; ')})`);
  }
  if (rest.result !== undefined) {
    const asResult = presetValueProblems(preset, 'result', rest.result);
    const envelope = rest.result as { error?: unknown } | null;
    const isEnvelope = typeof envelope === 'object' && envelope !== null && 'error' in envelope;
    const envelopeOk = isEnvelope && presetValueProblems(preset, 'error', envelope.error).length === 0;
    if (asResult.length && !envelopeOk)
      refused.push(`a result neither its result schema nor the error envelope's accepts (${asResult.join('; ')})`);
  }
  if (refused.length) return { problem: `expected a call to preset "${preset}" with ${refused.join(' and ')}` };
  return { want: { ...rest, name: preset }, label: `preset "${preset}"` };
}

function checkTools(calls: ToolCallRecord[], expectations: VerifyExpectations): VerifyProblem[] {
  const problems: VerifyProblem[] = [];
  const all = calls.length ? calls.map(describeCall).join('; ') : '(no tool calls)';
  for (const expectation of expectations.toolCalled ?? []) {
    const named = asNamed(expectation);
    if ('problem' in named) {
      problems.push({ kind: 'tool_expectation', message: named.problem });
      continue;
    }
    const { want, label } = named;
    const matching = calls.filter(
      (c) =>
        c.name === want.name &&
        (want.id === undefined || c.id === want.id) &&
        (want.arguments === undefined || jsonEquals(c.arguments, want.arguments)) &&
        (want.result === undefined || resultMatches(want.result, c.result)),
    );
    const ok = want.times === undefined ? matching.length > 0 : matching.length === want.times;
    if (ok) continue;
    const what = [
      want.id !== undefined ? `id ${want.id}` : '',
      want.arguments !== undefined ? `arguments ${preview(want.arguments)}` : '',
      want.result !== undefined ? `result ${preview(want.result)}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    problems.push({
      kind: 'tool_expectation',
      message: `expected ${label}${what ? ` with ${what}` : ''} to be called ${want.times === undefined ? 'at least once' : `${want.times} time${want.times === 1 ? '' : 's'}`}; matching calls: ${matching.length}. Calls: ${all}`,
    });
  }
  for (const name of expectations.toolNotCalled ?? []) {
    const made = calls.filter((c) => c.name === name);
    if (made.length) {
      problems.push({
        kind: 'tool_expectation',
        message: `expected tool "${name}" never to be called; it was called ${made.length} time(s): ${made.map(describeCall).join('; ')}`,
      });
    }
  }
  if (expectations.toolOrder?.length) {
    const firstCalls: string[] = [];
    for (const c of calls) if (!firstCalls.includes(c.name)) firstCalls.push(c.name);
    let at = 0;
    for (const name of firstCalls) if (name === expectations.toolOrder[at]) at++;
    if (at < expectations.toolOrder.length) {
      problems.push({
        kind: 'tool_expectation',
        message: `expected tools to be first called in the order ${expectations.toolOrder.join(' → ')}; actual order ${firstCalls.length ? firstCalls.join(' → ') : '(no tool calls)'}`,
      });
    }
  }
  return problems;
}

export function verifySession(session: Session, expectations: VerifyExpectations = {}): VerifyReport {
  const problems: VerifyProblem[] = [];
  for (const script of session.scripts) {
    script.steps.forEach((step, i) => {
      if (script.used[i] === 0) {
        problems.push({
          kind: 'unused_step',
          scenario: script.name,
          step: step.id,
          message: `scenario "${script.name}" step "${step.id}" was never used`,
        });
      }
    });
  }
  const { entries, counters } = session.journal.snapshot();
  const nearMisses: VerifyProblem[] = [];
  for (const entry of entries) {
    if (entry.source === 'zero_config' && entry.nearMisses?.length) nearMisses.push(nearMissProblem(entry));
    const kind = (entry.error?.code ? CODE_TO_KIND[entry.error.code] : undefined) ?? (entry.status === 400 ? 'invalid_request' : undefined);
    if (!kind || !entry.error) continue;
    problems.push({
      kind,
      requestId: entry.requestId,
      scenario: entry.script,
      step: entry.step,
      message: `request ${entry.requestId} (${entry.route}) answered ${entry.status}${entry.error.code ? ` ${entry.error.code}` : ''}: ${entry.error.message}${summarize(entry.request)}`,
    });
  }
  problems.push(...checkTools(session.toolLedger.list(), expectations));
  const seen = problems.filter(
    (p) =>
      p.kind === 'no_match' || p.kind === 'fixture_mismatch' || p.kind === 'scenario_exhausted' || p.kind === 'zero_config_unsatisfiable',
  ).length;
  const failed = counters.unmatched + counters.mismatched + counters.exhausted;
  if (failed > seen) {
    problems.push({
      kind: 'no_match',
      message: `${failed - seen} more unanswered requests were evicted from the journal (unmatched ${counters.unmatched}, mismatched ${counters.mismatched}, exhausted ${counters.exhausted})`,
    });
  }
  if (counters.nearMisses > nearMisses.length) {
    nearMisses.push({
      kind: 'near_miss',
      message: `${counters.nearMisses - nearMisses.length} more zero-config answers to near misses were evicted from the journal`,
    });
  }
  const warnings = expectations.failOnNearMiss ? [] : nearMisses;
  if (expectations.failOnNearMiss) problems.push(...nearMisses);
  const list = (items: VerifyProblem[], from: number) => items.map((p, i) => `  ${from + i + 1}. ${p.message}`).join('\n');
  let report = problems.length
    ? `Understudy session "${session.id}" failed verification (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n${list(problems, 0)}`
    : `Understudy session "${session.id}" verified: every step used, every request answered as scripted${
        expectations.toolCalled || expectations.toolNotCalled || expectations.toolOrder ? ', tool expectations met' : ''
      }.`;
  if (warnings.length) {
    report += `\nWarnings (${warnings.length} zero-config answer${warnings.length > 1 ? 's' : ''} to near misses; failOnNearMiss makes them errors):\n${list(warnings, 0)}`;
  }
  return { ok: problems.length === 0, problems, warnings, report };
}

/** A zero-config answer to a request that nearly matched a scenario: which, and why not. */
function nearMissProblem(entry: JournalEntry): VerifyProblem {
  const misses = entry.nearMisses ?? [];
  const first = misses[0];
  const why = misses
    .map(
      (m) =>
        `scenario "${m.scenario}" step "${m.step}" — ${m.failed.map((f) => `${f.predicate}: expected ${f.expected}, got ${f.actual}`).join('; ')}`,
    )
    .join(' | ');
  return {
    kind: 'near_miss',
    requestId: entry.requestId,
    scenario: first?.scenario,
    step: first?.step,
    message: `request ${entry.requestId} (${entry.route}) nearly matched and got a zero-config answer (${entry.status}) instead: ${why}${summarize(entry.request)}`,
  };
}
