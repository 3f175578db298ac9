// A job's bytes for one variant: the script's, or the default file (default-media.ts); and the
// answer of a download, as the job's script says downloads go (an error, a delay, a fault).

import type { NeutralError } from '../../core/errors.js';
import type { VideoJob } from '../../core/video-jobs.js';
import type { EncodedBody, InfoAnswer } from '../dialect.js';
import { defaultJpeg, defaultMp4, defaultWebp } from './default-media.js';

export type ContentVariant = 'video' | 'thumbnail' | 'spritesheet';

const TYPES: Record<ContentVariant, string> = { video: 'video/mp4', thumbnail: 'image/webp', spritesheet: 'image/jpeg' };

export function contentOf(job: VideoJob, variant: ContentVariant): { bytes: Uint8Array; contentType: string } {
  const scripted = job.content?.[variant];
  if (scripted) return { bytes: scripted, contentType: TYPES[variant] };
  const bytes =
    variant === 'video'
      ? defaultMp4(job.seconds, job.width, job.height)
      : variant === 'thumbnail'
        ? defaultWebp(job.width, job.height)
        : defaultJpeg(job.width, job.height);
  return { bytes, contentType: TYPES[variant] };
}

/** A download of `variant`: the bytes, or the scripted error in the route's shape, with the
 * script's delay and fault. */
export function downloadAnswer(job: VideoJob, variant: ContentVariant, encodeError: (error: NeutralError) => EncodedBody): InfoAnswer {
  const script = job.download;
  const act = script && (script.delayMs !== undefined || script.fault) ? { delayMs: script.delayMs, fault: script.fault } : undefined;
  if (script?.error) {
    return {
      ...encodeError(script.error),
      ...(script.delayMs !== undefined && { act: { delayMs: script.delayMs } }),
      journal: { error: script.error },
    };
  }
  const { bytes, contentType } = contentOf(job, variant);
  return { status: 200, headers: { 'content-type': contentType }, body: bytes, ...(act && { act }) };
}
