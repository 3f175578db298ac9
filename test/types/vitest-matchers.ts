// Type-checked by `npm run typecheck`, never run: llm-understudy/vitest's matchers are on vitest's
// `expect(...)`, and langchain's own vitest augmentation in the same program does not clash with
// them (both were compiled together once and clashed: TS2428).
import type { createAgent } from 'langchain';
import { expect } from 'vitest';
import type { UnderstudySession } from '../../src/index.js';
import '../../src/runners/vitest.js';

export async function matchersTypeCheck(session: UnderstudySession, agent: typeof createAgent): Promise<void> {
  await expect(session).toHaveCalledTool('weather', { city: 'Paris' });
  await expect(session).toHaveNoUnusedSteps();
  // @ts-expect-error: the matcher takes a tool name
  await expect(session).toHaveCalledTool(42);
  void agent;
}
