// What `presets.<name>.success(...)` and `failure(...)` return (src/presets/preset-tool.ts), read
// by shape: the engine and the client may not import src/presets/ (it loads zod), so a fixture is
// taken as the plain object it is.

export interface PresetFixtureShape {
  /** The call the model makes. */
  call: { id: string; name: string; arguments?: unknown };
  /** The tool-result content the application sends back: the result, or the error envelope. */
  result: unknown;
  /** True for a failure (`kind: 'failure'` says the same). */
  isError?: boolean;
  kind?: 'success' | 'failure';
  /** Milliseconds the step answering with the call waits. */
  delayMs?: number;
}

export function isPresetFixture(value: unknown): value is PresetFixtureShape {
  if (typeof value !== 'object' || value === null || !('call' in value)) return false;
  const call = (value as { call: unknown }).call;
  return typeof call === 'object' && call !== null && typeof (call as { name?: unknown }).name === 'string';
}

export function isFailureFixture(fixture: PresetFixtureShape): boolean {
  return fixture.isError === true || fixture.kind === 'failure';
}
