// What a fixture scripts for audio requests (its `speech` and `transcriptions` lists), compiled
// once when the fixture is loaded: the first entry whose conditions all hold answers.

import type { ScriptedSpeech, ScriptedTranscript, SpeechAsk, TranscriptAsk } from '../core/scripted-audio.js';
import { textMatcher } from './predicates.js';
import { scriptedError } from './scripted-list.js';
import type { ScriptedSpeechSpec, ScriptedTranscriptSpec } from './spec.js';

interface Compiled<Ask, Answer> {
  test(ask: Ask): boolean;
  answer: Answer;
}

function actOf(spec: ScriptedSpeechSpec | ScriptedTranscriptSpec) {
  return { ...(spec.delayMs !== undefined && { delayMs: spec.delayMs }), ...(spec.fault && { fault: spec.fault }) };
}

function compileSpeech(spec: ScriptedSpeechSpec): Compiled<SpeechAsk, ScriptedSpeech> {
  const input = spec.input === undefined ? undefined : textMatcher(spec.input).test;
  return {
    test: (ask) =>
      (input === undefined || input(ask.input)) &&
      (spec.voice === undefined || spec.voice === ask.voice) &&
      (spec.model === undefined || spec.model === ask.model),
    answer: {
      ...actOf(spec),
      ...(spec.audio !== undefined && { audio: new Uint8Array(Buffer.from(spec.audio, 'base64')) }),
      ...(spec.error && { error: scriptedError(spec.error) }),
    },
  };
}

function compileTranscript(spec: ScriptedTranscriptSpec): Compiled<TranscriptAsk, ScriptedTranscript> {
  return {
    test: (ask) =>
      (spec.sha256 === undefined || spec.sha256 === ask.sha256) &&
      (spec.fileName === undefined || spec.fileName === ask.fileName) &&
      (spec.model === undefined || spec.model === ask.model),
    answer: {
      ...actOf(spec),
      ...(spec.text !== undefined && { text: spec.text }),
      ...(spec.segments && { segments: spec.segments }),
      ...(spec.language !== undefined && { language: spec.language }),
      ...(spec.duration !== undefined && { duration: spec.duration }),
      ...(spec.error && { error: scriptedError(spec.error) }),
    },
  };
}

export class ScriptedAudio {
  private readonly speech: readonly Compiled<SpeechAsk, ScriptedSpeech>[];
  private readonly transcripts: readonly Compiled<TranscriptAsk, ScriptedTranscript>[];

  /** As loaded. */
  constructor(
    readonly speechSpecs: readonly ScriptedSpeechSpec[],
    readonly transcriptSpecs: readonly ScriptedTranscriptSpec[],
  ) {
    this.speech = speechSpecs.map(compileSpeech);
    this.transcripts = transcriptSpecs.map(compileTranscript);
  }

  /** The first matching speech entry's answer; undefined when none matches. */
  speechFor(ask: SpeechAsk): ScriptedSpeech | undefined {
    return this.speech.find((entry) => entry.test(ask))?.answer;
  }

  transcriptFor(ask: TranscriptAsk): ScriptedTranscript | undefined {
    return this.transcripts.find((entry) => entry.test(ask))?.answer;
  }

  /** This one with the lists a newly loaded fixture gives replaced; a list it leaves out is kept,
   * unless the load replaces everything. */
  loaded(
    speech: readonly ScriptedSpeechSpec[] | undefined,
    transcripts: readonly ScriptedTranscriptSpec[] | undefined,
    replace: boolean,
  ): ScriptedAudio {
    if (!speech && !transcripts && !replace) return this;
    return new ScriptedAudio(speech ?? (replace ? [] : this.speechSpecs), transcripts ?? (replace ? [] : this.transcriptSpecs));
  }
}

export const NO_SCRIPTED_AUDIO = new ScriptedAudio([], []);
