// The builders of one preset: the tool definition to offer, a call, a result, an error and the
// success and failure fixtures that bundle them. Every value is checked against the catalogue's
// schemas as it is built, so a mistake in a test's script shows where it was written, not as a 409
// later. Nothing here evaluates, reads a clock, fetches, touches a file or runs anything.

import type { ScriptedToolCall, ToolDefinition } from '../core/model.js';
import { PRESET_CATALOGUE, type JsonSchemaObject, type PresetDescriptor, type PresetName } from './catalogue.js';
import { checkedCallId, checkedJson, PresetValueError } from './check.js';
import type { PresetArguments, PresetError, PresetErrorResult, PresetResult } from './types.js';

/** A scripted call of a preset; `id` is always set (default `call_<name>`). */
export interface PresetCall<N extends PresetName> extends ScriptedToolCall {
  id: string;
  name: N;
  arguments: PresetArguments<N>;
}

/** The neutral tool definition of a preset, to offer in the provider's own tool shape. */
export interface PresetDefinition<N extends PresetName = PresetName> extends ToolDefinition {
  name: N;
  description: string;
  parameters: JsonSchemaObject;
}

interface FixtureOf<N extends PresetName> {
  /** What to offer the model as the tool. */
  definition: PresetDefinition<N>;
  /** The call the model makes (script it as the reply of one step). */
  call: PresetCall<N>;
  /** Milliseconds the step answering with the call waits (apply it with the builder's `delayedBy`). */
  delayMs?: number;
}

export interface PresetSuccess<N extends PresetName> extends FixtureOf<N> {
  kind: 'success';
  isError: false;
  /** The tool-result content the application sends back: the result itself, no envelope. */
  result: PresetResult<N>;
}

export interface PresetFailure<N extends PresetName> extends FixtureOf<N> {
  kind: 'failure';
  isError: true;
  /** The tool-result content the application sends back: the error envelope. */
  result: PresetErrorResult;
}

export type PresetFixture<N extends PresetName = PresetName> = PresetSuccess<N> | PresetFailure<N>;

export interface FixtureOptions {
  /** The call id (default `call_<name>`): non-blank, at most 128 characters. */
  id?: string;
  /** Milliseconds before the call is answered (a number ≥ 0). */
  delayMs?: number;
}

export class PresetTool<N extends PresetName> {
  readonly descriptor: PresetDescriptor<N>;

  constructor(readonly name: N) {
    this.descriptor = PRESET_CATALOGUE[name] as PresetDescriptor<N>;
  }

  /** The neutral tool definition: name, description and the catalogue's parameters schema (a copy). */
  definition(): PresetDefinition<N> {
    const { name, description, parameters } = this.descriptor;
    return { name, description, parameters: structuredClone(parameters) };
  }

  /** A call with these arguments, checked against the parameters schema. */
  call(args: PresetArguments<N>, id: string = `call_${this.name}`): PresetCall<N> {
    const checkedId = checkedCallId(this.name, id);
    const checkedArgs = checkedJson(this.name, 'arguments', this.descriptor.parameters, args);
    return { id: checkedId, name: this.name, arguments: checkedArgs };
  }

  /** A success result, checked against the result schema: the typed root itself. */
  result(value: PresetResult<N>): PresetResult<N> {
    return checkedJson(this.name, 'result', this.descriptor.resultSchema, value) as PresetResult<N>;
  }

  /** The error envelope `{ error: { code, message, retryable } }`, checked against the error schema. */
  error(error: PresetError): PresetErrorResult {
    return checkedJson(this.name, 'error', this.descriptor.errorSchema, { error }) as PresetErrorResult;
  }

  success(args: PresetArguments<N>, result: PresetResult<N>, options: FixtureOptions = {}): PresetSuccess<N> {
    return {
      kind: 'success',
      isError: false,
      ...this.fixtureOf(args, options),
      result: this.result(result),
    };
  }

  failure(args: PresetArguments<N>, error: PresetError, options: FixtureOptions = {}): PresetFailure<N> {
    return {
      kind: 'failure',
      isError: true,
      ...this.fixtureOf(args, options),
      result: this.error(error),
    };
  }

  private fixtureOf(args: PresetArguments<N>, { id, delayMs }: FixtureOptions): FixtureOf<N> {
    if (delayMs !== undefined && !(typeof delayMs === 'number' && Number.isFinite(delayMs) && delayMs >= 0)) {
      throw new PresetValueError(this.name, 'delay', [`must be a number of milliseconds ≥ 0; found ${String(delayMs)}`]);
    }
    return {
      definition: this.definition(),
      call: this.call(args, id),
      ...(delayMs !== undefined && { delayMs }),
    };
  }
}
