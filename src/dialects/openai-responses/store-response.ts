// After a response was delivered: keep it in the session's store (unless the request said
// `store: false`), so a later request can continue it with `previous_response_id` or point at
// one of its output items with `item_reference`.

import type { ChatRequest, JsonValue, Message, Part, ResolvedReply } from '../../core/model.js';
import type { DialectEncodeContext } from '../dialect.js';
import { itemIds } from './encode-response.js';
import { infoOf } from './request-info.js';
import { messageChars, ResponseStore, STORE_NAME } from './response-store.js';

function parsed(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

export function storeDeliveredResponse(reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): void {
  const info = infoOf(request);
  const store = ctx.wire.state.store(STORE_NAME, () => new ResponseStore());
  if (!info.store) {
    store.markUnstored(ctx.responseId);
    return;
  }
  const ids = itemIds(ctx.responseId);
  const items: { id: string; parts: Part[] }[] = [];
  if (reply.reasoning !== null) items.push({ id: ids.reasoning, parts: [{ type: 'reasoning', text: reply.reasoning }] });
  if (reply.content !== null) items.push({ id: ids.message, parts: [{ type: 'text', text: reply.content }] });
  reply.toolCalls.forEach((call, i) =>
    items.push({
      id: ids.call(i),
      parts: [
        { type: 'tool_call', id: call.id, name: call.name, argumentsText: call.argumentsText, arguments: parsed(call.argumentsText) },
      ],
    }),
  );
  const output: Message | null = items.length ? { role: 'assistant', parts: items.flatMap((item) => item.parts) } : null;
  store.add(
    {
      id: ctx.responseId,
      model: request.model,
      credential: info.credential,
      previousId: info.previousResponseId,
      input: info.input,
      output,
      chars: messageChars(output ? [...info.input, output] : info.input),
    },
    items,
  );
}
