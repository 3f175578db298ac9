// Conformance drivers for Gemini, through `@google/genai`: the Gemini API (API key), Vertex AI with
// project and location (an OAuth bearer that is the session key), and Vertex AI express mode (API
// key, the `publishers/google/models` path without project and location). `generateContent` for JSON,
// `generateContentStream` (server-sent events) for streams; tools and schemas as JSON Schema
// (`parametersJsonSchema`, `responseJsonSchema`).

import {
  ApiError,
  FunctionCallingConfigMode,
  GoogleGenAI,
  type GenerateContentParameters,
  type GenerateContentResponse,
} from '@google/genai';
import {
  CLIENT_TIMEOUT_MS,
  type Answer,
  type ConformanceClient,
  type ConformanceDriver,
  type ErrorSeen,
  type Question,
  type Target,
} from './driver.js';

const MODEL = 'gemini-2.5-flash';

function params(question: Question): GenerateContentParameters {
  return {
    model: MODEL,
    contents: [
      { role: 'user', parts: [{ text: question.prompt }] },
      ...(question.toolResult
        ? [
            {
              role: 'model',
              parts: [
                { functionCall: { id: question.toolResult.id, name: question.toolResult.name, args: question.toolResult.arguments } },
              ],
            },
            {
              role: 'user',
              parts: [
                {
                  functionResponse: {
                    id: question.toolResult.id,
                    name: question.toolResult.name,
                    response: { result: question.toolResult.result },
                  },
                },
              ],
            },
          ]
        : []),
    ],
    config: {
      ...(question.tools && {
        tools: [
          {
            functionDeclarations: question.tools.map((t) => ({
              name: t.name,
              description: t.description,
              parametersJsonSchema: t.parameters,
            })),
          },
        ],
      }),
      ...(question.toolChoice && {
        toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [question.toolChoice.name] } },
      }),
      ...(question.schema && { responseMimeType: 'application/json', responseJsonSchema: question.schema.schema }),
      ...(question.malformed && { temperature: 'hot' as never }),
    },
  };
}

function answerOf(chunks: GenerateContentResponse[], textDeltas: number): Answer {
  let text = '';
  let finish: string | undefined;
  const toolCalls: Answer['toolCalls'] = [];
  for (const chunk of chunks) {
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (part.text !== undefined && !part.thought) text += part.text;
      if (part.functionCall)
        toolCalls.push({ id: part.functionCall.id, name: part.functionCall.name ?? '', arguments: part.functionCall.args });
    }
    finish = chunk.candidates?.[0]?.finishReason ?? finish;
  }
  // Every chunk carries the usage so far; the last one the whole.
  const metadata = chunks.at(-1)?.usageMetadata;
  const usage = metadata && { input: metadata.promptTokenCount ?? 0, output: metadata.candidatesTokenCount ?? 0 };
  const requestId = chunks[0]?.sdkHttpResponse?.headers?.['x-request-id'];
  return { text, toolCalls, textDeltas, finish, usage, requestId };
}

function client(ai: GoogleGenAI): ConformanceClient {
  return {
    async ask(question, mode) {
      if (mode === 'json') return answerOf([await ai.models.generateContent(params(question))], 0);
      const chunks: GenerateContentResponse[] = [];
      let textDeltas = 0;
      for await (const chunk of await ai.models.generateContentStream(params(question))) {
        chunks.push(chunk);
        if (chunk.candidates?.[0]?.content?.parts?.some((p) => typeof p.text === 'string' && p.text !== '')) textDeltas++;
      }
      return answerOf(chunks, textDeltas);
    },
  };
}

/** Google's error body, `{"error":{"code","message","status"}}`, which genai puts in the message. */
function errorOf(thrown: unknown): ErrorSeen {
  if (!(thrown instanceof Error)) throw new Error(`@google/genai threw something that is not an Error: ${String(thrown)}`);
  let body: { error?: { status?: string; message?: string } } | undefined;
  try {
    body = JSON.parse(thrown.message) as typeof body;
  } catch {
    body = undefined;
  }
  if (thrown instanceof ApiError) return { api: true, status: thrown.status, type: body?.error?.status, message: thrown.message };
  return { api: body?.error !== undefined, status: undefined, type: body?.error?.status, message: thrown.message };
}

const httpOptions = (target: Target, provider: string) => ({
  baseUrl: target.url(provider),
  timeout: CLIENT_TIMEOUT_MS,
  retryOptions: { attempts: 1 },
});

export const geminiDriver: ConformanceDriver = {
  name: 'gemini',
  dialect: 'gemini',
  operations: { json: 'gemini.generateContent', stream: 'gemini.streamGenerateContent' },
  errorTypes: { invalidRequest: 'INVALID_ARGUMENT', rateLimited: 'RESOURCE_EXHAUSTED', conflict: 'ABORTED' },
  connect: (target) => client(new GoogleGenAI({ apiKey: target.apiKey, httpOptions: httpOptions(target, 'gemini') })),
  errorOf,
};

export const vertexDriver: ConformanceDriver = {
  name: 'vertex',
  dialect: 'gemini',
  operations: { json: 'vertex.generateContent', stream: 'vertex.streamGenerateContent' },
  route: /^POST \/v1beta1\/projects\/conformance\/locations\/us-central1\/publishers\/google\/models\/gemini-2\.5-flash:/,
  errorTypes: geminiDriver.errorTypes,
  connect(target) {
    const authClient = { getRequestHeaders: async () => new Headers({ authorization: `Bearer ${target.apiKey}` }) };
    return client(
      new GoogleGenAI({
        vertexai: true,
        project: 'conformance',
        location: 'us-central1',
        httpOptions: httpOptions(target, 'vertex'),
        googleAuthOptions: { authClient: authClient as never },
      }),
    );
  },
  errorOf,
};

export const vertexExpressDriver: ConformanceDriver = {
  name: 'vertex-express',
  dialect: 'gemini',
  operations: vertexDriver.operations,
  route: /^POST \/v1beta1\/publishers\/google\/models\/gemini-2\.5-flash:/,
  errorTypes: geminiDriver.errorTypes,
  connect: (target) => client(new GoogleGenAI({ vertexai: true, apiKey: target.apiKey, httpOptions: httpOptions(target, 'vertex') })),
  errorOf,
};
