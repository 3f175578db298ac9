// Bare specifiers of the pinned SDKs resolve to their latest majors (latest-sdks.json maps each to
// its alias in package.json), but only where the project's own files import them: a package inside
// node_modules keeps the dependencies npm installed for it.
import { readFileSync } from 'node:fs';

const LATEST = JSON.parse(readFileSync(new URL('./latest-sdks.json', import.meta.url), 'utf8'));

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export async function resolve(specifier, context, nextResolve) {
  const fromProject = context.parentURL !== undefined && !context.parentURL.includes('/node_modules/');
  const name = packageName(specifier);
  const alias = fromProject ? LATEST[name] : undefined;
  if (alias && alias !== name) return nextResolve(alias + specifier.slice(name.length), context);
  return nextResolve(specifier, context);
}
