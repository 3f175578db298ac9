// The images a session answered as `url`, kept so that the URL can be fetched from Understudy
// itself (GET …/v1/understudy-images/{name}): a dialect store of the session, so reset empties it,
// bounded in count and bytes — the oldest image goes first when either bound is passed.

import type { DialectState } from '../dialect.js';

export const IMAGE_URL_LIMITS = { images: 128, bytes: 32 * 1024 * 1024 };

export interface KeptImage {
  bytes: Buffer;
  contentType: string;
}

export class ImageUrls {
  private readonly kept = new Map<string, KeptImage>();
  private bytes = 0;
  private next = 0;

  /** A new image name (`img-000001.png`): names are never reused within the session. */
  name(extension: string): string {
    this.next++;
    return `img-${String(this.next).padStart(6, '0')}.${extension}`;
  }

  keep(name: string, image: KeptImage): void {
    this.kept.set(name, image);
    this.bytes += image.bytes.length;
    while (this.kept.size > IMAGE_URL_LIMITS.images || (this.bytes > IMAGE_URL_LIMITS.bytes && this.kept.size > 1)) {
      const [oldest, dropped] = this.kept.entries().next().value as [string, KeptImage];
      this.kept.delete(oldest);
      this.bytes -= dropped.bytes.length;
    }
  }

  get(name: string): KeptImage | undefined {
    return this.kept.get(name);
  }
}

export function imageUrlsOf(state: DialectState): ImageUrls {
  return state.store('images.urls', () => new ImageUrls());
}
