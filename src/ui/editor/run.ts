// The editor's actions run (after a click or a shortcut, so never in the first paint): each document of the
// text parsed (js-yaml), resolved through discovery, planned (./actions.ts) and sent through the store's
// logged fetch (source "editor"). ManifestEditor loads this module on demand, and early after the first
// paint so that the first click does not wait for it.
import type { PlaygroundStore } from '../playground.js';
import { formatPatchTarget, jsonOrUndefined, parseAll, planRequest, resolvePatchTarget, splitDocuments, type EditorAction } from './actions.js';
import { changesDiscovery, DiscoveryCache, resolveManifest, type ManifestIdentity } from './discovery.js';
import type { EditorSettings } from './state.js';
import { parseConflicts } from '../console/conflicts.js';
import { confirmDialog } from '../confirm/dialog.js';
import { editorDeleteImpact } from '../confirm/impact.js';

export async function fetchJson(store: PlaygroundStore, path: string): Promise<unknown> {
  const res = await store.fetch(path, { headers: { Accept: 'application/json' } }, 'editor');
  if (!res.ok) throw new Error(`${res.status} from ${path}`);
  return res.json() as Promise<unknown>;
}

/** Discovery per store (shared by the editor and the console). */
const caches = new WeakMap<PlaygroundStore, DiscoveryCache>();
export function discoveryFor(store: PlaygroundStore): DiscoveryCache {
  let c = caches.get(store);
  if (!c) {
    c = new DiscoveryCache((p) => fetchJson(store, p));
    caches.set(store, c);
  }
  return c;
}

export interface ActionResult {
  ok: boolean;
  text: string;
  /** the logged request that produced it (an apply conflict can be resolved later from the console) */
  requestId?: number;
  status?: number;
  path?: string;
}

/** One result line; a dry run says so (the server answered as if it wrote, and stored nothing). */
function statusSummary(res: Response, body: unknown, what: string, dryRun = false): ActionResult {
  const b = body as { kind?: string; message?: string; metadata?: { name?: string; resourceVersion?: string } } | undefined;
  const label = dryRun ? 'dry run: ' : '';
  if (res.ok) {
    const rv = b?.metadata?.resourceVersion ? ` (resourceVersion ${b.metadata.resourceVersion})` : '';
    return { ok: true, text: `${label}${res.status} ${what}${rv}${dryRun ? ' (not stored)' : ''}` };
  }
  return { ok: false, text: `${label}${res.status} ${what}: ${b?.message ?? res.statusText}` };
}

/**
 * Before a Delete that is not a dry run: names each object that will go (a namespace with everything in
 * it, a CRD with its custom resources) and asks. False when the user keeps them.
 */
export async function confirmEditorDelete(store: PlaygroundStore, text: string): Promise<boolean> {
  const docs = splitDocuments(text)
    .filter((d) => !d.error && d.value)
    .map((d) => d.value);
  if (docs.length === 0) return true; // nothing to delete: the action reports why
  const index = await discoveryFor(store).get();
  const fetchCount = async (path: string) => {
    const res = await store.fetch(path, { headers: { Accept: 'application/json' } }, 'confirm');
    if (!res.ok) throw new Error(`${res.status} from ${path}`);
    return res.json() as Promise<unknown>;
  };
  const { title, lines } = await editorDeleteImpact(index, docs, fetchCount);
  if (lines.length === 0) return true; // no document names an object: each request fails on its own
  return confirmDialog({ title, lines, note: 'This cannot be undone.', confirmLabel: 'Delete' });
}

const ACTION_VERB: Record<EditorAction, string> = { create: 'created', replace: 'replaced', apply: 'applied', patch: 'patched', delete: 'deleted' };

/** Runs an action over the editor's documents (patch: the whole text is the body). */
export async function runAction(store: PlaygroundStore, action: EditorAction, text: string, settings: EditorSettings): Promise<ActionResult[]> {
  const discovery = discoveryFor(store);
  let index = await discovery.get();
  const results: ActionResult[] = [];
  if (action === 'patch') {
    let body: unknown;
    try {
      const docs = parseAll(text);
      if (docs.length !== 1) return [{ ok: false, text: 'a patch is one document (the patch body)' }];
      body = docs[0];
    } catch (e) {
      return [{ ok: false, text: `YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` }];
    }
    // a body that names its object (apiVersion, kind, name) is the object shown: it wins over the setting
    const targetText = formatPatchTarget(body) || settings.patchTarget;
    const t = resolvePatchTarget(index, targetText);
    if ('error' in t) return [{ ok: false, text: t.error }];
    const plan = planRequest('patch', { text, value: body }, t.target, settings);
    if ('error' in plan) return [{ ok: false, text: plan.error }];
    const res = await store.fetch(plan.path, { method: plan.method, headers: plan.headers, body: plan.body }, 'editor');
    return [statusSummary(res, jsonOrUndefined(await res.clone().text()), `${t.target.resource.plural}/${t.target.name} ${ACTION_VERB.patch}`, settings.dryRun)];
  }
  for (const doc of splitDocuments(text)) {
    const label = `document ${doc.index + 1}`;
    if (doc.error) {
      results.push({ ok: false, text: `${label}: YAML: ${doc.error}` });
      continue;
    }
    const value = doc.value as ManifestIdentity;
    let r = resolveManifest(index, value);
    if (!r.ok && typeof value?.kind === 'string') {
      // a kind created moments ago (a CRD earlier in this text): read discovery again once
      discovery.invalidate();
      index = await discovery.get();
      r = resolveManifest(index, value);
    }
    if (!r.ok) {
      results.push({ ok: false, text: `${label}: ${r.error}` });
      continue;
    }
    const plan = planRequest(action, { text: doc.text, value: doc.value }, r.target, settings);
    if ('error' in plan) {
      results.push({ ok: false, text: `${label}: ${plan.error}` });
      continue;
    }
    const id = store.peekNextRequestId();
    const res = await store.fetch(plan.path, { method: plan.method, headers: plan.headers, body: plan.body }, 'editor');
    const body = jsonOrUndefined(await res.clone().text());
    const name = r.target.name ?? (body as { metadata?: { name?: string } } | undefined)?.metadata?.name ?? '';
    results.push({ ...statusSummary(res, body, `${r.target.resource.plural}/${name} ${ACTION_VERB[action]}`, settings.dryRun), requestId: id, status: res.status, path: plan.path });
    if (res.ok && !settings.dryRun && changesDiscovery(value)) {
      discovery.invalidate();
      store.discoveryChanged();
    }
    if (res.status === 409 && parseConflicts(body)) store.focusRequest(id);
  }
  if (results.length === 0) results.push({ ok: false, text: 'the editor holds no document' });
  return results;
}

/** The patch-target text of the text's first document that parses (`apps/v1 Deployment default/web`), or ''. */
export function patchTargetOf(text: string): string {
  return formatPatchTarget(splitDocuments(text).find((d) => d.value)?.value);
}

/** Whether the text's first document carries a resourceVersion (it came from the server). */
export function hasResourceVersion(text: string): boolean {
  const first = splitDocuments(text)[0]?.value as { metadata?: { resourceVersion?: unknown } } | undefined;
  return Boolean(first?.metadata?.resourceVersion);
}
