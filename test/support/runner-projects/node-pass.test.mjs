import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertCalledTool, assertNoUnusedSteps, useUnderstudy } from 'llm-understudy/node-test';
import { scriptWeather, weatherApp } from './common.mjs';

const understudy = useUnderstudy();

test('the weather loop ends with the tool run', async () => {
  await scriptWeather(understudy.session);
  assert.equal(await weatherApp(understudy), 'Sunny in Paris.');
  await assertCalledTool(understudy.session, 'weather', { city: 'Paris' });
  await assertNoUnusedSteps(understudy.session);
});

test('an assertion that fails says what was expected', async () => {
  await scriptWeather(understudy.session);
  await weatherApp(understudy);
  await assert.rejects(assertCalledTool(understudy.session, 'weather', { city: 'Lyon' }), /expected tool "weather" with arguments/);
  console.log(`SESSION ${understudy.session.id}`);
});
