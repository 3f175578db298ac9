// The yaml library, loaded the first time YAML is read or written: it is CommonJS and slow to load,
// so a server that is given only JSON fixtures, or none, never pays for it at start-up.

import { createRequire } from 'node:module';
import type * as YamlModule from 'yaml';

let yamlModule: typeof YamlModule | undefined;

export function yamlLibrary(): typeof YamlModule {
  return (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof YamlModule);
}
