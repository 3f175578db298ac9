export { startUnderstudy, createUnderstudy, connectUnderstudy, VerificationError, ScenarioBuilder } from './client/index.js';
export type { Understudy, UnderstudySession, InProcessOptions, StartOptions, Provider, Loadable, JournalSnapshot } from './client/index.js';
export type {
  FixtureSpec,
  FixtureInput,
  ScenarioSpec,
  ScenarioInput,
  StepSpec,
  WhenSpec,
  ReplySpec,
  MessageSpec,
  ExhaustionPolicy,
  FallbackMode,
} from './engine/spec.js';
export type { Reply, ScriptedToolCall, ScriptedError, JsonValue, Pacing, StreamFault, FaultKind } from './core/model.js';
export type {
  VerifyReport,
  VerifyProblem,
  VerifyExpectations,
  ToolExpectation,
  NamedToolExpectation,
  PresetToolExpectation,
} from './engine/verify.js';
export type { PresetFixtureShape } from './engine/preset-fixture.js';
export type { JournalEntry, JournalCounters } from './engine/journal.js';
export type { SessionOptions } from './engine/session.js';
export { UnderstudyServer, type ServerOptions } from './server/understudy-server.js';
export { loadFixtureFile, formatProblems, type FixtureResult, type FixtureProblem } from './engine/fixture-file.js';
export { UnderstudyModelError, UnderstudyFaultError } from './in-process/errors.js';
/** For the framework-native models' entries (llm-understudy/ai-sdk, /langchain), which share this
 * module's sessions: not part of the documented API. */
export { answerInProcess as _answerInProcess, type InProcessCall, type InProcessAnswer } from './in-process/exchange.js';
export { engineSessionOf as _engineSessionOf } from './client/index.js';
