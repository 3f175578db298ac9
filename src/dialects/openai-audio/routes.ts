// OpenAI's audio routes (speech, transcriptions, translations), Azure's (deployment and v1) and
// Groq's: info routes answered from the session's scripted audio and the derived answers, never
// from a chat script; the journal records each request. Chat requests never reach them.

import type { ChatDialect, DialectRegistration, InfoRouteSpec } from '../dialect.js';
import { encodeOpenAIError } from '../openai/encode-error.js';
import { openaiChat } from '../openai-chat/index.js';
import { AZURE_CHAT_VERSIONS, azure } from '../openai-hosts/azure.js';
import { datedVersion, encodeAzureError, v1Version } from '../openai-hosts/azure-service.js';
import { groq } from '../openai-hosts/groq.js';
import { hostRegistration } from '../openai-hosts/host-dialect.js';
import { versionCheck, type AudioHost } from './audio-host.js';
import { decodeGroqSpeech, GROQ_STYLE, GROQ_TRANSCRIPTION_RULES } from './groq.js';
import { answerSpeech } from './speech-answer.js';
import type { SpeechRequest } from './speech-request.js';
import { answerTranscription, OPENAI_STYLE, type TranscriptStyle } from './transcription-answer.js';
import { OPENAI_TRANSCRIPTION_RULES, type TranscriptionRules } from './transcription-request.js';

const OPENAI: AudioHost = { encodeError: encodeOpenAIError, catalogue: true };
const AZURE_DEPLOYMENT: AudioHost = {
  encodeError: encodeAzureError,
  before: versionCheck(datedVersion(AZURE_CHAT_VERSIONS)),
  modelOf: (ask) => ask.params?.deployment,
  catalogue: false,
};
const AZURE_V1: AudioHost = { encodeError: encodeAzureError, before: versionCheck(v1Version), catalogue: false };
// Groq's errors are OpenAI's.
const GROQ: AudioHost = { encodeError: encodeOpenAIError, catalogue: false };

// Refusals before the body (an unknown session, a missing key) in the host's shape.
const azureDialect = hostRegistration(azure).routes[0].dialect;
const groqDialect = hostRegistration(groq).routes[0].dialect;

interface Family {
  /** The journal's operation prefix, e.g. `openai.audio`. */
  prefix: string;
  host: AudioHost;
  dialect: ChatDialect;
  rules: TranscriptionRules;
  style: TranscriptStyle;
  /** The host's speech decoder, when it is not OpenAI's. */
  speech?: (body: unknown) => SpeechRequest;
}

function audioRoutes(base: string, family: Family): InfoRouteSpec[] {
  const { host, dialect, rules, style, prefix } = family;
  return [
    {
      method: 'POST',
      path: `${base}/audio/speech`,
      dialect,
      answer: (ask) => answerSpeech(host, ask, family.speech),
      journalAs: `${prefix}.speech`,
    },
    {
      method: 'POST',
      path: `${base}/audio/transcriptions`,
      dialect,
      bodyAs: 'bytes',
      answer: (ask) => answerTranscription(host, ask, 'transcribe', rules, style),
      journalAs: `${prefix}.transcriptions`,
    },
    {
      method: 'POST',
      path: `${base}/audio/translations`,
      dialect,
      bodyAs: 'bytes',
      answer: (ask) => answerTranscription(host, ask, 'translate', rules, style),
      journalAs: `${prefix}.translations`,
    },
  ];
}

const openaiFamily: Family = {
  prefix: 'openai.audio',
  host: OPENAI,
  dialect: openaiChat,
  rules: OPENAI_TRANSCRIPTION_RULES,
  style: OPENAI_STYLE,
};
const azureFamily: Family = { ...openaiFamily, prefix: 'azure.audio', host: AZURE_DEPLOYMENT, dialect: azureDialect };
const azureV1Family: Family = { ...azureFamily, prefix: 'azure-v1.audio', host: AZURE_V1 };
const groqFamily: Family = {
  prefix: 'groq.audio',
  host: GROQ,
  dialect: groqDialect,
  rules: GROQ_TRANSCRIPTION_RULES,
  style: GROQ_STYLE,
  speech: decodeGroqSpeech,
};

export const openaiAudioRegistration: DialectRegistration = {
  routes: [],
  providerPaths: {},
  infoRoutes: [
    ...audioRoutes('/v1', openaiFamily),
    ...audioRoutes('/openai/v1', openaiFamily),
    ...audioRoutes('/openai/deployments/{deployment}', azureFamily),
    ...audioRoutes('/azure/openai/deployments/{deployment}', azureFamily),
    ...audioRoutes('/azure/openai/v1', azureV1Family),
    ...audioRoutes('/groq/openai/v1', groqFamily),
  ],
};
