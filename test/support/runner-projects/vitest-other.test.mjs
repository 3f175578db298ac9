import { expect, test } from 'vitest';
import { useUnderstudy } from 'llm-understudy/vitest';
import { scriptWeather, weatherApp } from './common.mjs';

const understudy = useUnderstudy();

test('another file, its own server and session', async () => {
  await scriptWeather(understudy.session);
  expect(await weatherApp(understudy)).toBe('Sunny in Paris.');
  console.log(`SESSION ${understudy.session.id}`);
});
