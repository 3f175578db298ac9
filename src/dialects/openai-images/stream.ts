// A streamed image answer (`stream: true`) as OpenAI sends it: for each image, its partial images
// (`partial_images` of them, each `…partial_image` with its index), then `…completed` with the
// final image and the usage — `image_generation.*` for generations, `image_edit.*` for edits —
// each an SSE event named by its type. A scripted fault of kind `error` sends the error event.

import type { StreamFault } from '../../core/model.js';

export interface StreamedImage {
  final: Buffer;
  partials: Buffer[];
}

interface StreamContext {
  createdAt: number;
  /** What the events repeat of the request: background, output_format, size, quality. */
  echo: Record<string, string>;
  usage: Record<string, unknown> | undefined;
  /** The error a scripted fault of kind `error` carries. */
  faultError?: StreamFault['error'];
}

function frame(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

export function imageStream(
  operation: 'generate' | 'edit',
  images: readonly StreamedImage[],
  ctx: StreamContext,
): { events: string[]; errorEvent: string } {
  const prefix = operation === 'generate' ? 'image_generation' : 'image_edit';
  const events: string[] = [];
  for (const image of images) {
    image.partials.forEach((partial, index) =>
      events.push(
        frame(`${prefix}.partial_image`, {
          b64_json: partial.toString('base64'),
          created_at: ctx.createdAt,
          ...ctx.echo,
          partial_image_index: index,
        }),
      ),
    );
    events.push(
      frame(`${prefix}.completed`, { b64_json: image.final.toString('base64'), created_at: ctx.createdAt, ...ctx.echo, usage: ctx.usage }),
    );
  }
  const errorEvent = imageStreamError(ctx.faultError);
  return { events, errorEvent };
}

/** OpenAI's in-stream `error` event (the openai SDK throws it as an APIError). */
export function imageStreamError(e: { type?: string; code?: string | null; message?: string } | undefined): string {
  return frame('error', {
    error: { type: e?.type ?? 'server_error', code: e?.code ?? 'server_error', message: e?.message ?? 'Internal error', param: null },
  });
}
