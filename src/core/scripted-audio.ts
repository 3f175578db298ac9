// What a fixture scripts for an audio request (its `speech` and `transcriptions` lists), in the
// neutral form the engine hands the audio routes: the answer's content, or a provider error, and
// how it goes out (a delay, a fault).

import type { NeutralError } from './errors.js';
import type { StreamFault } from './model.js';

/** How a scripted audio answer is delivered. */
export interface AudioAct {
  delayMs?: number;
  fault?: StreamFault;
}

/** A speech request as the fixture's `speech` entries match it. */
export interface SpeechAsk {
  input: string;
  voice: string;
  model: string;
  format: string;
}

export interface ScriptedSpeech extends AudioAct {
  /** The audio bytes answered as they are (whatever format was asked for). */
  audio?: Uint8Array;
  error?: NeutralError;
}

/** A transcription or translation request as the `transcriptions` entries match it. */
export interface TranscriptAsk {
  sha256: string;
  fileName: string;
  model: string;
}

export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

export interface ScriptedTranscript extends AudioAct {
  text?: string;
  segments?: readonly TranscriptSegment[];
  language?: string;
  /** Seconds of audio the answer reports. */
  duration?: number;
  error?: NeutralError;
}
