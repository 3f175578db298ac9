// Where an SDK's majors differ in what they show a caller, a test asserts the behaviour of the
// major it runs (the Node 20 lane's pin or the current-SDK lane's latest), not either at once.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION as OPENAI_VERSION } from 'openai/version';

function major(version: string): number {
  return Number(version.split('.')[0]);
}

/** The version of the package a bare import of `name` loads here (through the lane's hook). */
function loadedVersion(name: string): string {
  for (let dir = dirname(fileURLToPath(import.meta.resolve(name))); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (manifest.name === name) return manifest.version;
    } catch {
      // not the package root yet
    }
  }
  throw new Error(`no package.json for ${name}`);
}

/** openai 6 yields a Responses stream's `error` event; openai 7 throws it as an APIError. */
export const OPENAI_THROWS_STREAM_ERROR_EVENTS = major(OPENAI_VERSION) >= 7;

/** The Gemini API version @google/genai puts in its paths unless told: v1beta up to 2, v1 from 3. */
export const GENAI_DEFAULT_API_VERSION = major(loadedVersion('@google/genai')) >= 3 ? 'v1' : 'v1beta';

/** ai 6's transcribe throws NoTranscriptGeneratedError for an empty text; ai 7 only for none. */
export const AI_REFUSES_EMPTY_TRANSCRIPTS = major(loadedVersion('ai')) < 7;
/** @google/genai 2 calls the Gemini API's Veo route from `generateVideos`; 3 keeps that method
 * for Vertex AI and refuses it on the Gemini API before sending anything (polling and downloads
 * still work there). */
export const GENAI_GENERATES_VIDEOS_ON_GEMINI_API = major(loadedVersion('@google/genai')) < 3;
/** @ai-sdk/google 3's image model calls Imagen's `:predict` on the Gemini API; 4 serves Gemini image
 * models only and refuses an Imagen model id before sending anything. */
export const AISDK_GOOGLE_SERVES_IMAGEN = major(loadedVersion('@ai-sdk/google')) < 4;
