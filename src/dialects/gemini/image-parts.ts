// A reply's images as Gemini's `inlineData` parts: scripted bytes as they are, or the default
// picture at the requested aspect ratio's size, its colours from the model, the latest user text
// and the image's place (so different prompts get different pictures, and a request the same
// bytes in every run).

import type { ChatRequest, ResolvedReply } from '../../core/model.js';
import { defaultPicture } from '../images-kit/default-picture.js';

function latestUserText(request: ChatRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (message.role !== 'user') continue;
    let text = '';
    for (const part of message.parts) if (part.type === 'text') text += part.text;
    return text;
  }
  return '';
}

export function imageParts(reply: ResolvedReply, request: ChatRequest): string[] {
  const images = reply.images;
  if (images === undefined) return [];
  const size = request.imageOutput ?? { width: 1024, height: 1024 };
  let seed: string | undefined;
  return images.map((image, index) => {
    let data = image.b64;
    if (data === undefined) {
      seed ??= `${request.model}\ngenerateContent\n${latestUserText(request)}`;
      data = defaultPicture({ seed, index, width: size.width, height: size.height, transparent: false }).toString('base64');
    }
    return `{"inlineData":{"mimeType":${JSON.stringify(image.mimeType)},"data":${JSON.stringify(data)}}}`;
  });
}
