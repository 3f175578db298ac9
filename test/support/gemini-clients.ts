// @google/genai pointed at a started Understudy for a session: on the Gemini API (its key in the
// header) and on Vertex AI (a bearer token from a stand-in auth client, a project and location).

import { GoogleGenAI } from '@google/genai';
import type { Understudy, UnderstudySession } from '../../src/index.js';

export function geminiClient(mock: Understudy, session: UnderstudySession, apiVersion?: string): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: session.apiKey,
    ...(apiVersion && { apiVersion }),
    httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 },
  });
}

export function vertexClient(mock: Understudy, session: UnderstudySession): GoogleGenAI {
  const authClient = { getRequestHeaders: async () => new Headers({ authorization: `Bearer ${session.apiKey}` }) };
  return new GoogleGenAI({
    vertexai: true,
    project: 'my-proj',
    location: 'us-central1',
    httpOptions: { baseUrl: mock.url('vertex'), timeout: 10_000 },
    googleAuthOptions: { authClient: authClient as never },
  });
}
