import { expect, test } from '@jest/globals';
import { useUnderstudy } from 'llm-understudy/jest';
import { scriptWeather, weatherApp } from './common.mjs';

const understudy = useUnderstudy();

test('the weather loop ends with the tool run', async () => {
  await scriptWeather(understudy.session);
  expect(await weatherApp(understudy)).toBe('Sunny in Paris.');
  await expect(understudy.session).toHaveCalledTool('weather', { city: 'Paris' });
  await expect(understudy.session).not.toHaveCalledTool('time');
  await expect(understudy.session).toHaveNoUnusedSteps();
});

test('a matcher that fails says what was expected', async () => {
  await scriptWeather(understudy.session);
  await weatherApp(understudy);
  await expect(expect(understudy.session).toHaveCalledTool('weather', { city: 'Lyon' })).rejects.toThrow(
    /expected tool "weather" with arguments/,
  );
  await expect(expect(understudy.session).not.toHaveNoUnusedSteps()).rejects.toThrow(/every step was used/);
  console.log(`SESSION ${understudy.session.id}`);
});
