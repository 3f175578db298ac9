// Proto messages a text-only stand-in reads nothing from (speech, image and retrieval settings,
// code-execution records), checked the way the front end parses them: each member the published
// protos give it, by its proto type. Members not listed are let through: the live API adds
// members to these messages before the protos show them (the SDK already types `imageSize`).

import { ENUM, field, snake, unset } from './proto-fields.js';
import { expectArray, expectBoolean, expectEnum, expectNumber, expectObject, expectString } from './wording.js';

export type Member = 'string' | 'bool' | 'double' | { enum: readonly string[]; name: string } | { message: Members } | { repeated: Member };
export type Members = Readonly<Record<string, Member>>;

/** Checks `value` as a message with these members; a path in messages is snake_case. */
export function checkMessage(value: unknown, at: string, members: Members): void {
  const message = expectObject(value, at);
  for (const key in members) {
    const member = field(message, key);
    if (!unset(member)) checkMember(member, `${at}.${snake(key)}`, members[key]);
  }
}

function checkMember(value: unknown, at: string, member: Member): void {
  if (member === 'string') expectString(value, at);
  else if (member === 'bool') expectBoolean(value, at);
  else if (member === 'double') expectNumber(value, at, undefined, 'TYPE_DOUBLE');
  else if ('enum' in member) expectEnum(value, member.enum, at, `${ENUM}${member.name}`);
  else if ('message' in member) checkMessage(value, at, member.message);
  else expectArray(value, at).forEach((item, i) => checkMember(item, `${at}[${i}]`, member.repeated));
}

const VOICE_CONFIG: Members = { prebuiltVoiceConfig: { message: { voiceName: 'string' } } };

export const SPEECH_CONFIG: Members = {
  voiceConfig: { message: VOICE_CONFIG },
  multiSpeakerVoiceConfig: {
    message: { speakerVoiceConfigs: { repeated: { message: { speaker: 'string', voiceConfig: { message: VOICE_CONFIG } } } } },
  },
  languageCode: 'string',
};

export const IMAGE_CONFIG: Members = { aspectRatio: 'string' };

export const RETRIEVAL_CONFIG: Members = {
  latLng: { message: { latitude: 'double', longitude: 'double' } },
  languageCode: 'string',
};

export const EXECUTABLE_CODE: Members = {
  language: { enum: ['LANGUAGE_UNSPECIFIED', 'PYTHON'], name: 'ExecutableCode.Language' },
  code: 'string',
};

export const CODE_EXECUTION_RESULT: Members = {
  outcome: {
    enum: ['OUTCOME_UNSPECIFIED', 'OUTCOME_OK', 'OUTCOME_FAILED', 'OUTCOME_DEADLINE_EXCEEDED'],
    name: 'CodeExecutionResult.Outcome',
  },
  output: 'string',
};
