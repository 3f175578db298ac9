// The credentials `understudy drift` adds to a re-sent request: a recording never holds any, so
// each comes from the environment variable the provider's own SDK reads (docs/record-replay.md
// "Checking for drift" has this table), and `--header NAME:HEADER=VALUE` adds anything else.
// They are sent to the upstream and nowhere else: never printed, never written.

export interface Credential {
  /** The --upstream names (the first segment of the operation id) it is for. */
  providers: readonly string[];
  /** The environment variables read, the first one set wins. */
  env: readonly string[];
  header: string;
  /** Written before the value (`Bearer `). */
  scheme?: string;
}

export const CREDENTIALS: readonly Credential[] = [
  { providers: ['openai'], env: ['OPENAI_API_KEY'], header: 'authorization', scheme: 'Bearer ' },
  { providers: ['anthropic'], env: ['ANTHROPIC_API_KEY'], header: 'x-api-key' },
  // The Anthropic SDK's other mode: a bearer token, used when no API key is set.
  { providers: ['anthropic'], env: ['ANTHROPIC_AUTH_TOKEN'], header: 'authorization', scheme: 'Bearer ' },
  { providers: ['gemini', 'vertex'], env: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], header: 'x-goog-api-key' },
  { providers: ['azure', 'azure-v1', 'foundry', 'foundry-models'], env: ['AZURE_OPENAI_API_KEY'], header: 'api-key' },
  { providers: ['cohere'], env: ['CO_API_KEY', 'COHERE_API_KEY'], header: 'authorization', scheme: 'Bearer ' },
  { providers: ['groq'], env: ['GROQ_API_KEY'], header: 'authorization', scheme: 'Bearer ' },
  { providers: ['mistral'], env: ['MISTRAL_API_KEY'], header: 'authorization', scheme: 'Bearer ' },
  { providers: ['deepseek'], env: ['DEEPSEEK_API_KEY'], header: 'authorization', scheme: 'Bearer ' },
  { providers: ['openrouter'], env: ['OPENROUTER_API_KEY'], header: 'authorization', scheme: 'Bearer ' },
  { providers: ['perplexity'], env: ['PERPLEXITY_API_KEY'], header: 'authorization', scheme: 'Bearer ' },
  { providers: ['ollama', 'ollama-openai'], env: ['OLLAMA_API_KEY'], header: 'authorization', scheme: 'Bearer ' },
  // A Bedrock API key is a bearer token, bound to no host; SigV4 would have to be re-signed.
  { providers: ['bedrock'], env: ['AWS_BEARER_TOKEN_BEDROCK'], header: 'authorization', scheme: 'Bearer ' },
];

/** The credential headers for `provider` from `env`: one per header, the first row that has a
 * variable set wins it. */
export function credentialHeaders(provider: string, env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of CREDENTIALS) {
    if (!row.providers.includes(provider) || row.header in out) continue;
    const value = row.env.map((name) => env[name]).find((v) => v !== undefined && v !== '');
    if (value !== undefined) out[row.header] = `${row.scheme ?? ''}${value}`;
  }
  return out;
}

/** The variables that would give `provider` a credential, for a refusal's hint. */
export function credentialVariables(provider: string): string[] {
  return CREDENTIALS.filter((row) => row.providers.includes(provider)).flatMap((row) => row.env);
}
