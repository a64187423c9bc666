// The share button, and the loading/saving of the scenario (share link, else the last local session).
// Every link (cluster objects, CEL content, a lesson, the acting user, or only the editor's text, as older
// links carry) shows what it will load and opens, once confirmed, in a fresh cluster of its own:
// `shared-<short hash of the link>`, or the lesson's own cluster for a link into a lesson. Nothing is
// applied before the user confirms. The acting user of the link is kept for that cluster.
import { useEffect, useState } from 'react';
import { DEFAULT_SETTINGS, DEFAULT_TEXT, editorLoaded, editorSettings, editorText, sanitizeSettings } from '../editor/state.js';
import { CHAT_LINK_CHARS, changedSettings, encodeScenario, initialScenario, parseSession, SESSION_KEY, shareUrl, ShareLinkError, type Scenario } from './share.js';
import { confirmDialog } from '../confirm/dialog.js';
import { usePlaygroundStore, type PlaygroundStore } from '../playground.js';
import { actingUserName, ADMIN, saveActingUser } from '../auth/identity.js';
import { celContent } from '../panels/cel/content.js';
import { collectObjects, createObjects } from './objects.js';
import { lessonById } from '../lessons/lessons.js';
import { lessonCluster, lessonSearch, readLessonLocation } from '../lessons/location.js';
import { freshCluster } from '../lessons/fresh-cluster.js';

/** The link (short hash) the user confirmed, waiting to be loaded in its own cluster after navigating there. */
const PENDING_KEY = 'kube-playground:pending-scenario';

/** The first 8 hex digits of the SHA-256 of the link's fragment. */
export async function shortHash(fragment: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(fragment) as Uint8Array<ArrayBuffer>));
  return [...digest.slice(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join('');
}


function targetCluster(s: Scenario, hash: string): string {
  const lesson = s.lesson && lessonById(s.lesson.id);
  return lesson ? lessonCluster(lesson.id) : `shared-${hash}`;
}

/** What a whole scenario will load, one line each, for the confirm dialog. */
function describeScenario(s: Scenario, cluster: string, current: string): string[] {
  const lines: string[] = [`A new cluster, ${cluster} (your cluster and its objects stay as they are).`];
  if (s.objects?.length) {
    const names = s.objects.map((o) => {
      const m = o.metadata as { name?: string; namespace?: string };
      return `${String(o.kind)} ${m.namespace ? `${m.namespace}/` : ''}${m.name}`;
    });
    lines.push(`${s.objects.length} cluster object${s.objects.length === 1 ? '' : 's'} to create: ${names.slice(0, 8).join(', ')}${names.length > 8 ? `, and ${names.length - 8} more` : ''}.`);
  }
  lines.push(`The editor's text (${lineCount(s.text)}) and settings.`);
  if (!(current.trim() === '' || current === DEFAULT_TEXT || current === s.text)) {
    lines.push(`It replaces the editor's text (${lineCount(current)}) with the link's (${lineCount(s.text)}).`);
  }
  if (s.cel) lines.push(`The CEL panel's expression: ${s.cel.expression.length > 80 ? `${s.cel.expression.slice(0, 80)}…` : s.cel.expression}`);
  if (s.lesson) {
    const lesson = lessonById(s.lesson.id);
    lines.push(lesson ? `The lesson "${lesson.title}", step ${s.lesson.step + 1}.` : `An unknown lesson "${s.lesson.id}" (ignored).`);
  }
  if (s.user) {
    const groups = s.user.kind === 'user' && s.user.groups.length ? ` (groups ${s.user.groups.join(', ')})` : '';
    lines.push(`Acting user: ${actingUserName(s.user)}${groups}, impersonated in that cluster.`);
  } else lines.push('Acting user: the cluster administrator.');
  return lines;
}

function readPending(): string | null {
  try {
    return sessionStorage.getItem(PENDING_KEY);
  } catch {
    return null;
  }
}

/**
 * A whole scenario: in its own cluster after confirmation, loads everything and says what failed; anywhere
 * else, asks, makes the target cluster fresh and goes there. Resolves to a warning, or 'cancelled'.
 */
async function openWhole(store: PlaygroundStore, s: Scenario, fragment: string, current: string, signal: AbortSignal): Promise<string | undefined | 'cancelled'> {
  const hash = await shortHash(fragment);
  const cluster = targetCluster(s, hash);
  const params = new URLSearchParams(location.search);
  if (params.get('cluster') === cluster && readPending() === hash) {
    editorText.set(s.text);
    editorSettings.set(sanitizeSettings(s.settings));
    if (s.cel) celContent.set(s.cel);
    // the objects are made by the administrator; then the link's user acts
    const outcome = s.objects?.length ? await createObjects((path, init) => store.fetch(path, init, 'share', { asAdmin: true }), s.objects) : { created: 0, errors: [] };
    saveActingUser(globalThis.localStorage, cluster, s.user ?? ADMIN);
    store.setActingUser(s.user ?? ADMIN);
    try {
      sessionStorage.removeItem(PENDING_KEY);
    } catch {
      // nothing pending was stored
    }
    // loaded: the fragment goes (a reload keeps the cluster and the session, and does not create again)
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    return outcome.errors.length ? `Some objects of the shared scenario could not be created: ${outcome.errors.join('; ')}` : undefined;
  }
  const ok = await confirmDialog(
    { title: 'Open the shared scenario?', lines: describeScenario(s, cluster, current), note: 'Cancel loads nothing; the link stays in the address bar.', confirmLabel: 'Open' },
    signal,
  );
  if (!ok) return 'cancelled';
  try {
    sessionStorage.setItem(PENDING_KEY, hash);
  } catch {
    return 'This browser does not allow session storage, so the shared scenario cannot be opened in its own cluster.';
  }
  await freshCluster(cluster);
  saveActingUser(globalThis.localStorage, cluster, s.user ?? ADMIN);
  const lesson = s.lesson && lessonById(s.lesson.id);
  let search: string;
  if (lesson) search = lessonSearch(location.search, lesson.id, Math.min(s.lesson!.step, lesson.steps.length));
  else {
    params.delete('lesson');
    params.delete('step');
    params.set('cluster', cluster);
    search = `?${params}`;
  }
  location.assign(`${location.pathname}${search}${fragment}`);
  return 'cancelled';
}

function storedSession(): string | null {
  try {
    return localStorage.getItem(SESSION_KEY);
  } catch {
    return null;
  }
}

function lineCount(text: string): string {
  const n = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return `${n} line${n === 1 ? '' : 's'}`;
}

/** Loads the scenario of the URL fragment (or the local session) into the editor, once and on hashchange. */
export function useScenario(): string | undefined {
  const store = usePlaygroundStore();
  const [warning, setWarning] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    const abort = new AbortController();
    const load = async (first: boolean) => {
      const hash = location.hash;
      if (!first && !hash) return;
      const stored = first ? storedSession() : null;
      const r = await initialScenario(hash, stored, { text: first ? DEFAULT_TEXT : editorText.get(), settings: first ? {} : editorSettings.get() });
      if (!live) return;
      if (r.source === 'link') {
        const current = first ? (parseSession(stored)?.text ?? DEFAULT_TEXT) : editorText.get();
        const outcome = await openWhole(store, r.scenario, hash, current, abort.signal);
        if (!live) return;
        if (outcome === 'cancelled') {
          if (first) {
            const session = parseSession(stored);
            editorText.set(session?.text ?? DEFAULT_TEXT);
            editorSettings.set(sanitizeSettings(session?.settings ?? {}));
          }
        }
        setWarning(outcome === 'cancelled' ? undefined : outcome);
        editorLoaded.set(true);
        return;
      }
      if (first) {
        editorText.set(r.scenario.text);
        editorSettings.set(sanitizeSettings(r.scenario.settings));
      }
      setWarning(r.warning);
      editorLoaded.set(true);
    };
    // a link that fails in an unforeseen way still leaves a usable editor, with the reason shown
    const safeLoad = (first: boolean) =>
      load(first).catch((err: unknown) => {
        if (!live) return;
        setWarning(`The shared link could not be opened: ${err instanceof Error ? err.message : String(err)}.`);
        editorLoaded.set(true);
      });
    void safeLoad(true);
    const onHash = () => void safeLoad(false);
    window.addEventListener('hashchange', onHash);
    // the session is saved as it changes (debounced)
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!editorLoaded.get()) return;
        try {
          localStorage.setItem(SESSION_KEY, JSON.stringify({ text: editorText.get(), settings: changedSettings(editorSettings.get(), DEFAULT_SETTINGS) }));
        } catch {
          // storage full or denied: sessions are a convenience
        }
      }, 300);
    };
    const subs = [editorText.subscribe(save), editorSettings.subscribe(save)];
    return () => {
      live = false;
      abort.abort();
      clearTimeout(timer);
      window.removeEventListener('hashchange', onHash);
      subs.forEach((u) => u());
    };
  }, [store]);
  return warning;
}

/** The scenario of this page: editor, CEL panel, lesson and the cluster's own objects (within the budget). */
async function currentScenario(store: PlaygroundStore): Promise<{ scenario: Scenario; omitted: number }> {
  const where = readLessonLocation(location.search);
  let objects: Record<string, unknown>[] = [];
  let omitted = 0;
  try {
    ({ objects, omitted } = await collectObjects((path, init) => store.fetch(path, init, 'share', { asAdmin: true })));
  } catch {
    // the cluster could not be read: the link carries the rest
  }
  const cel = celContent.get();
  const user = store.get().actingUser;
  return {
    scenario: {
      text: editorText.get(),
      settings: changedSettings(editorSettings.get(), DEFAULT_SETTINGS) as Record<string, string | boolean>,
      ...(cel ? { cel } : {}),
      ...(where?.inOwnCluster ? { lesson: { id: where.lesson.id, step: where.step } } : {}),
      ...(objects.length ? { objects } : {}),
      ...(user && user.kind !== 'admin' ? { user } : {}),
    },
    omitted,
  };
}

function download(name: string, text: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function ShareButton() {
  const store = usePlaygroundStore();
  const [message, setMessage] = useState('');
  const [tooLong, setTooLong] = useState<string | undefined>();
  const share = async () => {
    let fragment: string;
    let omitted = 0;
    setTooLong(undefined);
    try {
      const current = await currentScenario(store);
      omitted = current.omitted;
      fragment = await encodeScenario(current.scenario);
    } catch (err) {
      setMessage(err instanceof ShareLinkError ? `No share link: ${err.message}.` : 'No share link: the text could not be packed.');
      return;
    }
    const url = shareUrl(location.href, fragment);
    history.replaceState(null, '', url);
    const left = omitted ? ` ${omitted} cluster object${omitted === 1 ? ' was' : 's were'} left out (size budget).` : '';
    if (url.length > CHAT_LINK_CHARS) {
      setTooLong(url);
      setMessage(`The link is ${url.length} characters, too long for many chat apps (more than ${CHAT_LINK_CHARS}): download it as a file instead and send that; Clusters > Import opens it.${left}`);
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
      setMessage(`Share link copied to the clipboard.${left}`);
      setTimeout(() => setMessage(''), 4000);
    } catch {
      setMessage('Share link is in the address bar.');
    }
  };
  return (
    <span className="share">
      <button type="button" onClick={() => void share()}>
        Share
      </button>
      {tooLong && (
        <button type="button" onClick={() => download('kube-playground-scenario.link.txt', `${tooLong}\n`)}>
          Download link as a file
        </button>
      )}
      <span role="status" className="toast" data-testid="share-status">
        {message}
      </span>
    </span>
  );
}
