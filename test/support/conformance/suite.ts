// The conformance suite over a list of drivers: one server per driver, every case in each of the
// modes the driver has, sessions and scripts through the control API (test/conformance*.test.ts).

import { after, before, describe, test } from 'node:test';

import { connectUnderstudy, startUnderstudy, type Understudy } from '../../../src/client/index.js';
import { CASES } from './cases.js';
import { featuresOf, type ConformanceClient, type ConformanceDriver, type Feature } from './driver.js';

export function conformanceSuites(drivers: readonly ConformanceDriver[]): void {
  for (const driver of drivers) {
    describe(`conformance: ${driver.name}`, () => {
      let mock: Understudy;
      // Sessions, scripts and journals go through the control API, as from any language.
      let control: Omit<Understudy, 'close'>;
      before(async () => {
        mock = await startUnderstudy();
        control = await connectUnderstudy(mock.baseUrl);
      });
      after(async () => {
        await mock.close();
      });
      for (const conformance of CASES) {
        for (const mode of conformance.modes) {
          if (driver.operations[mode] === undefined) continue;
          const options = { timeout: 20_000, ...(conformance.todo && { todo: conformance.todo }) };
          test(`${driver.name}: ${conformance.name} (${mode})`, options, async (t) => {
            const id = `${conformance.name.replace(/[^a-z]+/g, '-')}-${mode}`;
            const session = await control.session(id, conformance.zeroConfig ? { fallback: 'auto' } : {});
            const sdk = driver.connect({ url: (provider) => session.url(provider), apiKey: session.apiKey });
            // A question asking for what the provider lacks is not sent: the case is skipped, whatever
            // it made of the refusal.
            let lacking: Feature | undefined;
            // Scenarios built in a case are sent before each question.
            const client: ConformanceClient = {
              async ask(question, askMode) {
                lacking ??= featuresOf(question).find((feature) => driver.lacks?.includes(feature));
                if (lacking) throw new Error(`${driver.name} offers no ${lacking}`);
                await session.push();
                return sdk.ask(question, askMode);
              },
            };
            const outcome = await conformance.run({ driver, mode, client, session }).catch((error: unknown) => error);
            if (lacking) t.skip(`${driver.name} offers no ${lacking}`);
            else if (outcome !== undefined) throw outcome;
          });
        }
      }
    });
  }
}
