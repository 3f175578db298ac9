// A fluent way to write a scenario: `when…` methods describe the next step's predicates, a
// reply method (`replies`, `repliesJson`, `callsTool`, `callsTools`, `callsPreset`, `fails`,
// `reply`) closes the step. `onChange` lets an in-process session apply every change at once.
// Awaiting a builder waits until its scenario is loaded (over HTTP: sent), so
// `await session.scenario('x').replies('hi')` means what it says; `.then()` with no arguments only
// reads as a separator between steps.

import type { JsonValue, Pacing, Reply, ScriptedToolCall, StreamFault, Usage } from '../core/model.js';
import type { PresetNameInCopy } from '../core/preset-copy.js';
import { isFailureFixture, type PresetFixtureShape } from '../engine/preset-fixture.js';
import type { ExhaustionPolicy, MessageSpec, ReplyInput, ScenarioInput, StepInput, TextMatchSpec, WhenSpec } from '../engine/spec.js';

export class ScenarioBuilder {
  private readonly steps: StepInput[] = [];
  private when: WhenSpec = {};
  private exhausted?: ExhaustionPolicy;
  private maxReplies?: number;

  constructor(
    readonly name: string,
    private readonly onChange?: (spec: ScenarioInput) => void,
    /** Settles once the session holds this scenario (sends it, over HTTP). */
    private readonly loaded?: () => Promise<void>,
  ) {}

  // ---- predicates of the next step ----
  whenModel(model: string | TextMatchSpec): this {
    return this.add({ model });
  }
  whenLatestUser(match: string | TextMatchSpec): this {
    return this.add({ latestUser: match });
  }
  whenToolResult(name?: string, id?: string, content?: JsonValue): this {
    return this.add({
      toolResult: { ...(name !== undefined && { name }), ...(id !== undefined && { id }), ...(content !== undefined && { content }) },
    });
  }
  /** Readable alias of whenToolResult for the step after a tool call. */
  thenWhenToolResult(name?: string, id?: string, content?: JsonValue): this {
    return this.whenToolResult(name, id, content);
  }
  /** The tool result of a preset fixture (`presets.weather.success(...)` or `failure(...)`): a
   * result for its call's name and id, the content structurally equal to the fixture's result (or
   * error envelope), answering a call in the history that carried the fixture's arguments. */
  whenPresetResult(fixture: PresetFixtureShape): this {
    const { call } = fixture;
    if (this.when.toolResult !== undefined)
      throw new Error(
        `scenario "${this.name}": this step already waits for a tool result; a step has one toolResult condition (wait for the other result in a step of its own)`,
      );
    let value: { error: JsonValue } | { result: JsonValue };
    if (isFailureFixture(fixture)) {
      const envelope = fixture.result as { error?: JsonValue } | null;
      if (typeof envelope !== 'object' || envelope === null || envelope.error === undefined)
        throw new Error(
          `scenario "${this.name}": a failure fixture's result is the error envelope { error: { code, message, retryable } }`,
        );
      value = { error: envelope.error };
    } else value = { result: fixture.result as JsonValue };
    return this.add({
      toolResult: {
        preset: call.name as PresetNameInCopy,
        id: call.id,
        ...(call.arguments !== undefined && { arguments: call.arguments as JsonValue }),
        ...value,
      },
    });
  }
  /** Readable alias of whenPresetResult for the step after `callsPreset`. */
  thenWhenPresetResult(fixture: PresetFixtureShape): this {
    return this.whenPresetResult(fixture);
  }
  whenToolArguments(equals: JsonValue, name?: string, id?: string): this {
    return this.add({ toolArguments: { equals, ...(name !== undefined && { name }), ...(id !== undefined && { id }) } });
  }
  whenJsonPath(path: string, equals: JsonValue, where: 'latest' | 'toolResult' = 'latest'): this {
    return this.add({ jsonPath: { path, equals, in: where } });
  }
  whenHistoryExact(messages: MessageSpec[]): this {
    return this.add({ historyExact: messages });
  }
  whenHistoryContains(messages: MessageSpec[]): this {
    return this.add({ historyContains: messages });
  }
  /** The SDK's retry attempt (0 = first try). */
  whenAttempt(attempt: number): this {
    return this.add({ attempt });
  }
  whenHasTool(name: string): this {
    return this.add({ hasTool: name });
  }
  /** With no arguments: reads as a separator between steps and changes nothing. */
  then(): this;
  /** Called by `await`: settles once the session holds this scenario. */
  then<Loaded = void, Failed = never>(
    onLoaded?: ((value: void) => Loaded | PromiseLike<Loaded>) | null,
    onFailed?: ((reason: unknown) => Failed | PromiseLike<Failed>) | null,
  ): Promise<Loaded | Failed>;
  then<Loaded = void, Failed = never>(
    onLoaded?: ((value: void) => Loaded | PromiseLike<Loaded>) | null,
    onFailed?: ((reason: unknown) => Failed | PromiseLike<Failed>) | null,
  ): this | Promise<Loaded | Failed> {
    if (onLoaded === undefined && onFailed === undefined) return this;
    return this.whenLoaded().then(onLoaded, onFailed);
  }

  private whenLoaded(): Promise<void> {
    if (!this.loaded) {
      return Promise.reject(
        new Error(
          `scenario "${this.name}": a builder made on its own is loaded nowhere; pass it to session.load(), or make it with session.scenario()`,
        ),
      );
    }
    try {
      return this.loaded();
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  // ---- replies: each closes a step ----
  replies(text: string, options: Omit<Reply, 'text' | 'json'> = {}): this {
    return this.reply({ ...options, text });
  }
  repliesJson(json: JsonValue, options: Omit<Reply, 'text' | 'json'> = {}): this {
    return this.reply({ ...options, json });
  }
  callsTool(name: string, args: JsonValue = {}, id?: string): this {
    return this.reply({ toolCalls: [{ name, arguments: args, ...(id !== undefined && { id }) }] });
  }
  callsTools(calls: ScriptedToolCall[]): this {
    return this.reply({ toolCalls: calls });
  }
  /** Calls a preset as its fixture says (`presets.weather.success(...)`): its call (preset name, id,
   * arguments, checked against the preset when the scenario is loaded) after the fixture's delay. */
  callsPreset(fixture: PresetFixtureShape): this {
    return this.callsPresets([fixture]);
  }
  /** Several preset calls in one reply (give them distinct ids); the longest of their delays applies. */
  callsPresets(fixtures: PresetFixtureShape[]): this {
    const delays = fixtures.flatMap((f) => (f.delayMs === undefined ? [] : [f.delayMs]));
    return this.reply({
      toolCalls: fixtures.map(({ call }) => ({
        preset: call.name as PresetNameInCopy,
        id: call.id,
        arguments: call.arguments as JsonValue,
      })),
      ...(delays.length > 0 && { delayMs: Math.max(...delays) }),
    });
  }
  fails(
    status: number,
    message: string,
    options: { code?: string; type?: string; headers?: Record<string, string>; extra?: Record<string, JsonValue> } = {},
  ): this {
    return this.reply({ error: { status, message, ...options } });
  }
  reply(reply: Reply | ReplyInput, options: { id?: string; next?: string | string[] } = {}): this {
    const step: StepInput = { reply: structuredClone(reply) };
    if (Object.keys(this.when).length > 0) step.when = this.when;
    if (options.id !== undefined) step.id = options.id;
    if (options.next !== undefined) step.next = options.next;
    const when = this.when;
    this.steps.push(step);
    this.when = {};
    return this.transact(() => {
      this.steps.pop();
      this.when = when;
    });
  }

  // ---- modifiers of the last step ----
  delayedBy(ms: number): this {
    return this.modifyLast((s) => (s.reply.delayMs = ms));
  }
  inChunks(chunks: string[]): this {
    return this.modifyLast((s) => (s.reply.chunks = [...chunks]));
  }
  /** Paces the last step's streamed answer. */
  paced(pacing: Pacing): this {
    return this.modifyLast((s) => (s.reply.pacing = { ...pacing }));
  }
  /** Makes the last step's answer fail part-way (a stream error event, truncation, reset…). */
  withFault(fault: StreamFault): this {
    return this.modifyLast((s) => (s.reply.fault = structuredClone(fault)));
  }
  /** Members the last step's answer carries on hosts that add their own (Perplexity's
   * `citations` and `search_results`, OpenRouter's `provider`); docs/dialects/openai-hosts.md. */
  withHostFields(fields: Record<string, JsonValue>): this {
    return this.modifyLast((s) => (s.reply.hostFields = structuredClone(fields)));
  }
  /** Token counts the last step's answer reports instead of the counted ones (fields left out
   * are counted); docs/fixtures.md, "Reported token counts". */
  withUsage(usage: Partial<Usage>): this {
    return this.modifyLast((s) => (s.reply.usage = { ...usage }));
  }
  named(id: string): this {
    return this.modifyLast((s) => (s.id = id));
  }
  goesTo(next: string | string[]): this {
    return this.modifyLast((s) => (s.next = next));
  }

  // ---- scenario options ----
  onExhausted(policy: ExhaustionPolicy): this {
    const before = this.exhausted;
    this.exhausted = policy;
    return this.transact(() => (this.exhausted = before));
  }
  limitReplies(max: number): this {
    const before = this.maxReplies;
    this.maxReplies = max;
    return this.transact(() => (this.maxReplies = before));
  }

  build(): ScenarioInput {
    const spec: ScenarioInput = { name: this.name, steps: structuredClone(this.steps) };
    if (this.exhausted) spec.exhausted = this.exhausted;
    if (this.maxReplies !== undefined) spec.maxReplies = this.maxReplies;
    return spec;
  }

  private add(when: WhenSpec): this {
    this.when = { ...this.when, ...when };
    return this;
  }

  private modifyLast(change: (step: StepInput) => void): this {
    const last = this.steps[this.steps.length - 1];
    if (!last) throw new Error(`scenario "${this.name}": add a reply before modifying it`);
    const before = structuredClone(last);
    change(last);
    return this.transact(() => (this.steps[this.steps.length - 1] = before));
  }

  /** Step ids named by a `next` that no step of this scenario has (yet). */
  danglingNext(): string[] {
    const ids = new Set(this.steps.map((s, i) => s.id ?? `step-${i + 1}`));
    const refs = this.steps.flatMap((s) => (s.next === undefined ? [] : Array.isArray(s.next) ? s.next : [s.next]));
    return refs.filter((ref) => ref !== 'complete' && !ids.has(ref));
  }

  /** Applies the change, or undoes it and rethrows when the session refuses it. */
  private transact(undo: () => void): this {
    try {
      return this.changed();
    } catch (error) {
      undo();
      throw error;
    }
  }

  private changed(): this {
    // A `next` may name a step the chain adds later: apply once every target exists.
    if (this.onChange && this.steps.length > 0 && this.danglingNext().length === 0) this.onChange(this.build());
    return this;
  }
}
