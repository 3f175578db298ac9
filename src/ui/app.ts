// The dashboard page: the sessions, the selected session's scripts as graphs and its verify(), and
// the live journal of every session, read from the server's event feed.

import { ApiError, getJson, hasToken, loadToken, readEvents, setToken, type FeedEvent } from './api.js';
import { byId, fill, h } from './dom.js';
import { Feed } from './feed.js';
import { Filters } from './filters.js';
import { renderScript } from './graph.js';
import type { EntrySummary, ScriptGraph, SessionInfo, VerifyReport } from './types.js';
import { renderVerify } from './verify-view.js';

const RETRY_MS = [500, 1000, 2000, 5000];

const connection = byId('connection');
const notice = byId('notice');
const sessionList = byId<HTMLUListElement>('session-list');
const sessionHeading = byId('session-heading');
const sessionNotice = byId('session-notice');
const scriptsBox = byId('scripts');
const verifyButton = byId<HTMLButtonElement>('verify-run');
const verifyResult = byId('verify-result');

const filters = new Filters(byId('filter-session'), byId('filter-route'), byId('filter-status'), () => feed.applyFilters());
const feed = new Feed(byId<HTMLOListElement>('entries'), byId('journal-count'), filters);

let sessions: SessionInfo[] = [];
let selected: string | undefined = new URLSearchParams(location.hash.replace(/^#/, '')).get('session') ?? undefined;
let stopped = false;
/** Whether a session's scripts have been shown yet (the first listing picks one). */
let shown = false;
/** Whether the feed's connection has sent its backlog and now sends entries as they come. */
let live = false;

function setConnection(state: 'connecting' | 'live' | 'retrying' | 'stopped', text: string): void {
  connection.dataset.state = state;
  connection.textContent = text;
}

/** Shows why the page cannot read the server, and for a missing token, where to put it. */
function showAccessProblem(error: ApiError): void {
  stopped = true;
  setConnection('stopped', 'Not connected');
  notice.hidden = false;
  if (error.status !== 401) {
    fill(notice, h('h2', {}, 'The server refused the dashboard'), h('p', {}, `${error.status} ${error.code}: ${error.message}`));
    return;
  }
  const input = h('input', { id: 'token-input', type: 'password', autocomplete: 'off', required: true });
  const form = h(
    'form',
    { className: 'token-form' },
    h('label', { for: 'token-input' }, 'Control token'),
    input,
    h('button', { type: 'submit' }, 'Use this token'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!input.value) return;
    setToken(input.value);
    notice.hidden = true;
    fill(notice);
    stopped = false;
    start();
  });
  fill(
    notice,
    h('h2', {}, 'This server needs its control token'),
    h(
      'p',
      {},
      hasToken() ? 'The token this page has was refused. ' : 'The server was started with a control token, and this page has none. ',
      'Open the dashboard as ',
      h('code', {}, `${location.origin}${location.pathname}#token=YOUR_TOKEN`),
      ' (the part after # never leaves the browser), or enter the token here.',
    ),
    form,
  );
}

function renderSessions(): void {
  fill(
    sessionList,
    ...sessions.map((session) => {
      const complete = session.scripts.filter((s) => s.complete).length;
      const button = h(
        'button',
        {
          type: 'button',
          className: 'session-button',
          'aria-current': session.id === selected ? 'true' : undefined,
          'data-session': session.id,
        },
        h('span', { className: 'session-id' }, session.id),
        h(
          'span',
          { className: 'session-facts' },
          `${session.scripts.length} ${session.scripts.length === 1 ? 'script' : 'scripts'}`,
          session.scripts.length > 0 ? `, ${complete} complete` : '',
          ` · ${session.fallback}`,
        ),
      );
      button.addEventListener('click', () => {
        fill(sessionNotice);
        select(session.id);
      });
      return h('li', {}, button);
    }),
  );
}

/** Lists the sessions. The first listing, or one without the selected session, selects one (which
 * loads its scripts and verify()); the answer says whether it did. A selected session that is gone
 * is said so, with the session shown instead. */
async function loadSessions(): Promise<boolean> {
  const body = await getJson<{ sessions: SessionInfo[] }>('/sessions');
  sessions = body.sessions;
  filters.knowSessions(sessions.map((s) => s.id));
  const exists = sessions.some((s) => s.id === selected);
  if (shown && exists) {
    renderSessions();
    return false;
  }
  const wanted = exists ? selected : (sessions.find((s) => s.scripts.length > 0) ?? sessions[0])?.id;
  if (selected !== undefined && !exists) {
    fill(
      sessionNotice,
      wanted === undefined
        ? `Session "${selected}" does not exist (any more).`
        : `Session "${selected}" does not exist (any more); showing "${wanted}".`,
    );
  }
  if (wanted === undefined) {
    selected = undefined;
    sessionHeading.textContent = 'Scripts';
    fill(scriptsBox, h('p', { className: 'empty' }, 'There are no sessions.'));
    fill(verifyResult);
    renderSessions();
    return true;
  }
  shown = true;
  select(wanted, true);
  return true;
}

function select(id: string, first = false): void {
  const changed = first || id !== selected;
  selected = id;
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  fragment.set('session', id);
  history.replaceState(null, '', `#${fragment.toString()}`);
  renderSessions();
  if (changed) fill(verifyResult);
  void refreshScripts();
  void runVerify();
}

let scriptsRequest = 0;
async function refreshScripts(): Promise<void> {
  const id = selected;
  if (id === undefined) return;
  const mine = ++scriptsRequest;
  sessionHeading.textContent = `Scripts of ${id}`;
  try {
    const body = await getJson<{ scripts: ScriptGraph[] }>(`/sessions/${encodeURIComponent(id)}/scripts`);
    if (mine !== scriptsRequest) return;
    if (body.scripts.length === 0) fill(scriptsBox, h('p', { className: 'empty' }, 'This session has no scripts.'));
    else fill(scriptsBox, ...body.scripts.map(renderScript));
  } catch (e) {
    if (mine !== scriptsRequest) return;
    fill(scriptsBox, h('p', { className: 'error-message' }, `Could not load the scripts: ${(e as Error).message}`));
  }
}

let verifyRequest = 0;
/** Set while verify() runs: whether a request of the session arrived meanwhile, which the answer
 * may or may not count. */
let arrivedDuringVerify: boolean | undefined;

async function runVerify(): Promise<void> {
  const id = selected;
  if (id === undefined) return;
  const mine = ++verifyRequest;
  verifyButton.disabled = true;
  arrivedDuringVerify = false;
  try {
    const report = await getJson<VerifyReport>(`/sessions/${encodeURIComponent(id)}/verify`);
    if (mine === verifyRequest) fill(verifyResult, renderVerify(report, id, new Date()));
  } catch (e) {
    if (mine === verifyRequest)
      fill(verifyResult, h('p', { className: 'error-message' }, `verify() could not run: ${(e as Error).message}`));
  } finally {
    if (mine === verifyRequest) {
      verifyButton.disabled = false;
      verifyResult.dataset.stale = 'false';
      const arrived = arrivedDuringVerify;
      arrivedDuringVerify = undefined;
      if (arrived) markVerifyStale();
    }
  }
}

let syncTimer: ReturnType<typeof setTimeout> | undefined;
/** Reads again what the page shows of the server: the sessions, and the selected session's scripts
 * and verify(), or another session's if it is gone. Every (re)connection of the feed runs it, since
 * the server may have restarted, and so does a change of the selected session. */
async function resync(): Promise<void> {
  clearTimeout(syncTimer);
  clearTimeout(sessionsTimer);
  clearTimeout(scriptsTimer);
  try {
    if (await loadSessions()) return;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) showAccessProblem(e);
    return;
  }
  void refreshScripts();
  void runVerify();
}

function resyncSoon(): void {
  clearTimeout(syncTimer);
  syncTimer = setTimeout(() => void resync(), 100);
}

let scriptsTimer: ReturnType<typeof setTimeout> | undefined;
/** The graph follows the journal: a burst of requests redraws it once. */
function scriptsChanged(): void {
  clearTimeout(scriptsTimer);
  scriptsTimer = setTimeout(() => void refreshScripts(), 150);
}

let sessionsTimer: ReturnType<typeof setTimeout> | undefined;
function sessionsChanged(): void {
  clearTimeout(sessionsTimer);
  sessionsTimer = setTimeout(() => void loadSessions().catch(() => undefined), 100);
}

function markVerifyStale(): void {
  if (arrivedDuringVerify !== undefined) {
    arrivedDuringVerify = true;
    return;
  }
  if (verifyResult.dataset.stale === 'true' || !verifyResult.firstChild) return;
  verifyResult.dataset.stale = 'true';
  verifyResult.append(h('p', { className: 'verify-stale' }, 'New requests arrived since: run verify again.'));
}

function onEvent(event: FeedEvent): void {
  if (event.event === 'live') {
    feed.endBacklog();
    live = true;
    setConnection('live', 'Live');
    void resync();
    return;
  }
  if (event.event === 'session') {
    const change = JSON.parse(event.data) as { id: string; change: string };
    if (change.change === 'reset' || change.change === 'deleted') feed.dropSession(change.id);
    if (change.id === selected) resyncSoon();
    else sessionsChanged();
    return;
  }
  if (event.event === 'entry') {
    const entry = JSON.parse(event.data) as EntrySummary;
    feed.add(entry);
    // The backlog is what the journal held already: the resync at `live` covers it, and it is not
    // news to a verify() run after it.
    if (!live) return;
    if (!sessions.some((s) => s.id === entry.session)) sessionsChanged();
    if (entry.session === selected) {
      scriptsChanged();
      markVerifyStale();
    }
  }
}

async function follow(): Promise<void> {
  let failures = 0;
  while (!stopped) {
    setConnection('connecting', failures === 0 ? 'Connecting…' : 'Reconnecting…');
    try {
      live = false;
      feed.beginBacklog();
      await readEvents('/events?backlog=1', new AbortController().signal, (event) => {
        failures = 0;
        onEvent(event);
      });
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
        showAccessProblem(e);
        return;
      }
    }
    live = false;
    if (stopped) return;
    const wait = RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)];
    setConnection('retrying', `Disconnected; trying again in ${wait / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Follows the feed; its `live` marker, on each connection, loads the sessions and what they show. */
function start(): void {
  void follow();
}

verifyButton.addEventListener('click', () => void runVerify());
loadToken();
start();
