import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useUnderstudy } from 'llm-understudy/node-test';
import { scriptWeather, weatherApp } from './common.mjs';

const understudy = useUnderstudy();

test('another file, its own server and session', async () => {
  await scriptWeather(understudy.session);
  assert.equal(await weatherApp(understudy), 'Sunny in Paris.');
  console.log(`SESSION ${understudy.session.id}`);
});
