// A script's host answer members (Reply.hostFields: Perplexity's `citations`, OpenRouter's
// `provider` …) added to a host's answer or stream event. A member the answer already has is
// kept: a script adds to the wire shape, it cannot replace `choices` or `usage`.

import type { ResolvedReply } from '../../core/model.js';
import type { JsonObject } from './host.js';

export function addHostFields(target: JsonObject, reply: ResolvedReply): void {
  const fields = reply.hostFields;
  if (fields === undefined) return;
  for (const key in fields) {
    // Defined, not assigned: a member named `__proto__` is a member, not the object's prototype.
    if (!Object.hasOwn(target, key))
      Object.defineProperty(target, key, { value: fields[key], enumerable: true, writable: true, configurable: true });
  }
}
