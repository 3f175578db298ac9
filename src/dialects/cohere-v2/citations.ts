// A reply's citations as Cohere's: each span with its sources, which name the request's documents
// (answered with the document's fields, as Cohere echoes them) or its tool results (answered as
// the tool's output). The sources depend on the request, so this runs per answer — only for
// replies that carry citations.

import type { ChatRequest, ResolvedCitation } from '../../core/model.js';

function sourceJson(id: string, request: ChatRequest): string {
  const document = request.documents?.find((d) => d.id === id);
  if (document) return `{"type":"document","id":${JSON.stringify(id)},"document":${JSON.stringify({ id, ...document.fields })}}`;
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool_result' || part.callId !== id) continue;
      let output: unknown;
      try {
        output = JSON.parse(part.content);
      } catch {
        output = undefined;
      }
      const toolOutput = typeof output === 'object' && output !== null && !Array.isArray(output) ? output : { text: part.content };
      return `{"type":"tool","id":${JSON.stringify(id)},"tool_output":${JSON.stringify(toolOutput)}}`;
    }
  }
  return `{"type":"document","id":${JSON.stringify(id)},"document":{"id":${JSON.stringify(id)}}}`;
}

/** One citation as Cohere's object; `contentIndex` is the text item's index in `content`. */
export function citationJson(citation: ResolvedCitation, contentIndex: number, request: ChatRequest, string = JSON.stringify): string {
  const sources = citation.sources.map((id) => sourceJson(id, request)).join(',');
  return (
    `{"start":${citation.start},"end":${citation.end},"text":${string(citation.text)},"sources":[${sources}],` +
    `"type":"TEXT_CONTENT","content_index":${contentIndex}}`
  );
}
