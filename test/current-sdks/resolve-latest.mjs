// Bare specifiers of the pinned SDKs resolve to their latest majors (the aliases in package.json).
const LATEST = { openai: 'openai-latest' };

export async function resolve(specifier, context, nextResolve) {
  const slash = specifier.indexOf('/');
  const name = slash < 0 ? specifier : specifier.slice(0, slash);
  const alias = LATEST[name];
  if (alias) return nextResolve(alias + specifier.slice(name.length), context);
  return nextResolve(specifier, context);
}
