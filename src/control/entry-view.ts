// GET /_understudy/sessions/ID/journal/SEQ: one journal entry whole, with the bodies on the wire.
// The request body is shown with the members a recording leaves out redacted (engine/redaction.ts);
// the headers, where credentials travel, are never kept.

import type { JsonValue } from '../core/model.js';
import type { Journal, JournalEntry } from '../engine/journal.js';
import { redactionOf, redactPaths } from '../engine/redaction.js';

export interface EntryView extends JournalEntry {
  wire: { request?: string; requestTruncated?: boolean; response?: string; responseKept: boolean };
}

const REDACTION = redactionOf([]);

export function entryView(journal: Journal, seq: number, responseKept: boolean): EntryView | undefined {
  const found = journal.entry(seq);
  if (!found) return undefined;
  const wire: EntryView['wire'] = { responseKept };
  if (found.requestText !== undefined) wire.request = redactedBody(found.requestText);
  else if (found.requestPreview !== undefined) {
    wire.request = found.requestPreview;
    wire.requestTruncated = true;
  }
  if (found.responseText !== undefined) wire.response = found.responseText;
  return { ...found.entry, wire };
}

/** A JSON body with the redacted members replaced and pretty-printed; any other body as it came. */
function redactedBody(text: string): string {
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
  return JSON.stringify(redactPaths(parsed, REDACTION.paths), null, 2);
}
