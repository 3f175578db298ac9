import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useUnderstudy } from 'llm-understudy/node-test';
import { weatherApp } from './common.mjs';

const understudy = useUnderstudy();

test('leaves a scripted step unused', async () => {
  await understudy.session.scenario('chatty').replies('Sunny in Paris.').then().replies('never asked for');
  assert.equal(await weatherApp(understudy), 'Sunny in Paris.');
});
