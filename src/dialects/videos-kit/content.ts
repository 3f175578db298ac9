// A job's bytes for one variant: the script's, or the default file (default-media.ts).

import type { VideoJob } from '../../core/video-jobs.js';
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
