// Opening a share link and collecting the page's scenario for one: the parts of sharing that need the
// lessons, the cluster's objects and the confirm dialog, loaded only when a link is opened or Share is
// pressed (./use-scenario.ts and ./ShareButton.tsx import this module on demand). Every link (cluster
// objects, CEL content, a lesson, the acting user, or only the editor's text, as older links carry) shows
// what it will load and opens, once confirmed, in a fresh cluster of its own: `shared-<short hash of the
// link>`, or the lesson's own cluster for a link into a lesson. Nothing is applied before the user
// confirms. The acting user of the link is kept for that cluster.
import { DEFAULT_SETTINGS, DEFAULT_TEXT, editorSettings, editorText, sanitizeSettings } from '../editor/state.js';
import { changedSettings, type Scenario } from './share.js';
import { confirmDialog } from '../confirm/dialog.js';
import type { PlaygroundStore } from '../playground.js';
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
export async function openWhole(store: PlaygroundStore, s: Scenario, fragment: string, current: string, signal: AbortSignal): Promise<string | undefined | 'cancelled'> {
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

function lineCount(text: string): string {
  const n = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return `${n} line${n === 1 ? '' : 's'}`;
}

/** The scenario of this page: editor, CEL panel, lesson and the cluster's own objects (within the budget). */
export async function currentScenario(store: PlaygroundStore): Promise<{ scenario: Scenario; omitted: number }> {
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

