import { expect, test } from '@jest/globals';
import { useUnderstudy } from 'llm-understudy/jest';
import { weatherApp } from './common.mjs';

const understudy = useUnderstudy();

test('leaves a scripted step unused', async () => {
  await understudy.session.scenario('chatty').replies('Sunny in Paris.').then().replies('never asked for');
  expect(await weatherApp(understudy)).toBe('Sunny in Paris.');
});
