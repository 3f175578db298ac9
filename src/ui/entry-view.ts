// One journal entry opened up: why it was answered the way it was (the step, or the error with each
// near miss's failed predicates, expected beside actual), the decoded request, the reply, usage,
// timing and faults, and the bodies as they went over the wire.

import { compactJson, h, prettyBody, timeElement, type Child } from './dom.js';
import type { ChatRequest, EntrySummary, FullEntry, Message, NearMiss, Part, Usage } from './types.js';

function section(title: string, ...children: Child[]): HTMLElement {
  return h('section', { className: 'detail-section' }, h('h3', {}, title), ...children);
}

function facts(pairs: [string, Child][]): HTMLDListElement {
  const list = h('dl', { className: 'facts' });
  for (const [name, value] of pairs) {
    if (value === undefined || value === null || value === '') continue;
    list.append(h('dt', {}, name), h('dd', {}, value));
  }
  return list;
}

function pre(text: string, label: string): HTMLElement {
  // A scrollable region must be reachable by keyboard: it takes focus and says what it holds.
  return h('pre', { className: 'body', tabindex: 0, 'aria-label': label }, text);
}

function outcome(entry: EntrySummary): HTMLElement {
  if (entry.event === 'request_aborted') {
    return section('Outcome', h('p', {}, 'The client gave up before the answer was delivered; nothing was consumed.'));
  }
  if (entry.error) {
    return section(
      'Why it was refused',
      facts([
        ['status', String(entry.status)],
        ['code', entry.error.code ?? '(none)'],
      ]),
      h('p', { className: 'error-message' }, entry.error.message),
    );
  }
  const answeredBy: [string, Child][] = [
    ['source', entry.source ?? ''],
    ['scenario', entry.script ?? ''],
    ['step', entry.step ?? ''],
  ];
  return section('Answered by', facts(answeredBy));
}

/** The near misses: for each scenario step, every predicate that failed, expected beside actual. */
export function nearMissView(misses: NearMiss[], answered: boolean): HTMLElement {
  const intro = answered
    ? 'Answered without a script, though these steps nearly matched:'
    : 'No step matched. The nearest steps, and each condition that failed:';
  return section(
    'Near misses',
    h('p', {}, intro),
    ...misses.map((miss) =>
      h(
        'table',
        { className: 'near-miss' },
        h('caption', {}, `scenario ${miss.scenario}, step ${miss.step}`),
        h(
          'thead',
          {},
          h('tr', {}, h('th', { scope: 'col' }, 'condition'), h('th', { scope: 'col' }, 'expected'), h('th', { scope: 'col' }, 'actual')),
        ),
        h(
          'tbody',
          {},
          ...miss.failed.map((failed) =>
            h(
              'tr',
              { className: 'failed-predicate' },
              h('th', { scope: 'row', 'data-label': 'condition' }, failed.predicate),
              h('td', { className: 'expected', 'data-label': 'expected' }, failed.expected),
              h('td', { className: 'actual', 'data-label': 'actual' }, failed.actual),
            ),
          ),
        ),
      ),
    ),
  );
}

function partView(part: Part): HTMLElement {
  switch (part.type) {
    case 'text':
      return h('div', { className: 'part part-text' }, part.text);
    case 'reasoning':
      return h('div', { className: 'part part-reasoning' }, h('span', { className: 'part-kind' }, 'reasoning '), part.text);
    case 'image':
      return h('div', { className: 'part part-image' }, h('span', { className: 'part-kind' }, 'image '), compactJson(part.url, 120));
    case 'tool_call':
      return h(
        'div',
        { className: 'part part-call' },
        h('span', { className: 'part-kind' }, 'tool call '),
        `${part.name}(${part.argumentsText}) id ${part.id}`,
      );
    case 'tool_result':
      return h(
        'div',
        { className: 'part part-result' },
        h('span', { className: 'part-kind' }, part.isError ? 'tool error ' : 'tool result '),
        `${part.name ?? '?'} id ${part.callId}: ${part.content}`,
      );
    default:
      return h('div', { className: 'part' }, compactJson(part, 400));
  }
}

function messageView(message: Message): HTMLLIElement {
  return h(
    'li',
    { className: `message role-${message.role}` },
    h('span', { className: 'role' }, message.role),
    ...message.parts.map(partView),
  );
}

function requestView(request: ChatRequest): HTMLElement {
  const choice = request.toolChoice
    ? request.toolChoice.type === 'named'
      ? `named: ${request.toolChoice.name}`
      : request.toolChoice.type
    : '';
  const output = request.output
    ? request.output.type === 'json_schema'
      ? `json_schema ${request.output.name ?? ''}`.trim()
      : request.output.type
    : '';
  return section(
    'Decoded request',
    facts([
      ['model', request.model],
      ['stream', request.stream === undefined ? '' : String(request.stream)],
      ['tool choice', request.tools.length > 0 ? choice : ''],
      ['parallel tool calls', request.tools.length > 0 && request.parallelToolCalls !== undefined ? String(request.parallelToolCalls) : ''],
      ['output', output],
      ['max output tokens', request.maxOutputTokens === undefined ? '' : String(request.maxOutputTokens)],
    ]),
    h('h4', {}, `Messages (${request.messages.length})`),
    h('ol', { className: 'messages' }, ...request.messages.map(messageView)),
    request.tools.length > 0 && h('h4', {}, `Tools (${request.tools.length})`),
    request.tools.length > 0 &&
      h(
        'ul',
        { className: 'tools' },
        ...request.tools.map((tool) =>
          h(
            'li',
            {},
            h('code', {}, tool.name),
            tool.description ? ` — ${tool.description}` : '',
            h(
              'details',
              {},
              h('summary', {}, `parameters of ${tool.name}`),
              pre(JSON.stringify(tool.parameters, null, 2), `parameters of ${tool.name}`),
            ),
          ),
        ),
      ),
  );
}

function usageView(usage: Usage): HTMLElement {
  return section(
    'Usage',
    facts([
      ['input tokens', String(usage.inputTokens)],
      ['output tokens', String(usage.outputTokens)],
      ['cached input tokens', usage.cachedInputTokens === undefined ? '' : String(usage.cachedInputTokens)],
      ['cache write tokens', usage.cacheWriteTokens === undefined ? '' : String(usage.cacheWriteTokens)],
      ['reasoning tokens', usage.reasoningTokens === undefined ? '' : String(usage.reasoningTokens)],
    ]),
  );
}

function timingView(entry: EntrySummary): HTMLElement {
  return section(
    'Timing',
    facts([
      ['received', timeElement(entry.time)],
      ['total', entry.ms === undefined ? '' : formatMs(entry.ms)],
      ['first byte', entry.firstByteMs === undefined ? '' : formatMs(entry.firstByteMs)],
      ['stream', String(entry.stream)],
      ['paced', entry.paced ? 'yes' : ''],
      ['fault', entry.fault ?? ''],
      ['worker', entry.worker === undefined ? '' : String(entry.worker)],
    ]),
  );
}

/** The journal counts durations in whole milliseconds: shown as such, with no decimals it lacks. */
export function formatMs(ms: number): string {
  return `${Math.round(ms)} ms`;
}

function wireView(entry: FullEntry): HTMLElement {
  const wire = entry.wire;
  const request = wire?.request ?? entry.requestPreview;
  const truncated = wire?.requestTruncated === true || entry.truncated === true;
  return section(
    'On the wire',
    h('h4', {}, 'Request body (redacted)'),
    request === undefined
      ? h(
          'p',
          { className: 'note request-not-kept' },
          'The request body was not kept (it was larger than the journal keeps per entry, or never arrived).',
        )
      : pre(prettyBody(request), 'request body'),
    request !== undefined && truncated
      ? h('p', { className: 'note' }, 'The body was larger than the journal keeps whole: this is its beginning.')
      : null,
    h('h4', {}, 'Response body'),
    wire?.response !== undefined
      ? pre(prettyBody(wire.response), 'response body')
      : h(
          'p',
          { className: 'note' },
          wire?.responseKept
            ? 'No response body was written for this request.'
            : 'Response bodies are not kept. Start the server with --journal-bodies (option journalBodies: true) to see them here.',
        ),
  );
}

/** The whole detail of one entry. */
export function renderEntryDetail(entry: FullEntry): DocumentFragment {
  const fragment = document.createDocumentFragment();
  fragment.append(
    facts([
      ['session', entry.session],
      ['request id', entry.requestId],
      ['route', entry.route],
      ['operation', entry.operation],
    ]),
    outcome(entry),
  );
  if (entry.nearMisses?.length) fragment.append(nearMissView(entry.nearMisses, !entry.error));
  if (entry.request) fragment.append(requestView(entry.request));
  if (entry.reply !== undefined)
    fragment.append(
      section('Reply', h('details', {}, h('summary', {}, 'the reply as resolved'), pre(JSON.stringify(entry.reply, null, 2), 'reply'))),
    );
  if (entry.usage) fragment.append(usageView(entry.usage));
  fragment.append(timingView(entry), wireView(entry));
  return fragment;
}
