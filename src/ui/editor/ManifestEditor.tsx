// The manifest editor: Monaco (lazy) in YAML, and the actions Create, Replace, Apply, Patch and Delete
// with their options (dry run, field validation, field manager with recent managers, force, patch type and
// target). Every request goes through the store's logged fetch (source "editor").
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { usePlayground, usePlaygroundStore, type LoggedRequest, type PlaygroundStore } from '../playground.js';
import {
  formatPatchTarget,
  jsonOrUndefined,
  parseAll,
  planRequest,
  rememberManager,
  resolvePatchTarget,
  splitDocuments,
  type EditorAction,
  type FieldValidation,
  type PatchType,
} from './actions.js';
import { changesDiscovery, DiscoveryCache, resolveManifest, type ManifestIdentity } from './discovery.js';
import { combinedSchema, kindSchemas, openApiDocumentUrls, type JsonSchema } from './schemas.js';
import { editorLoaded, editorSettings, editorText, type EditorSettings } from './state.js';
import type { ShortcutAction } from './monaco-view.js';
import { conflictResolution, parseConflicts } from '../console/conflicts.js';
import { confirmDialog } from '../confirm/dialog.js';
import { editorDeleteImpact } from '../confirm/impact.js';
import { useRovingFocus } from '../a11y/roving.js';

const MonacoView = lazy(() => import('./monaco-view.js'));

const RECENT_KEY = 'kube-playground:recent-managers';

function readRecent(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

async function fetchJson(store: PlaygroundStore, path: string): Promise<unknown> {
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

async function loadSchema(store: PlaygroundStore): Promise<JsonSchema> {
  const urls = openApiDocumentUrls(await fetchJson(store, '/openapi/v3'));
  const docs = await Promise.all(urls.map((u) => fetchJson(store, u).catch(() => undefined)));
  return combinedSchema(kindSchemas(docs.filter(Boolean)));
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

const NO_REQUESTS: LoggedRequest[] = [];

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

function useValue<T>(s: { get(): T; subscribe(l: () => void): () => void }): T {
  return useSyncExternalStore(s.subscribe, s.get);
}

export function ManifestEditor() {
  const store = usePlaygroundStore();
  const theme = usePlayground((s) => s.theme);
  const editorRequest = usePlayground((s) => s.editorRequest);
  const epoch = usePlayground((s) => s.discoveryEpoch ?? 0);
  const presenter = usePlayground((s) => s.presenter ?? false);
  // each toolbar's buttons and check boxes are one tab stop (arrows move), so Tab reaches the text soon
  const actionsBar = useRef<HTMLDivElement>(null);
  const optionsBar = useRef<HTMLDivElement>(null);
  useRovingFocus(actionsBar);
  useRovingFocus(optionsBar);
  const text = useValue(editorText);
  const settings = useValue(editorSettings);
  const loaded = useValue(editorLoaded);
  const [recent, setRecent] = useState<string[]>(readRecent);
  const [results, setResults] = useState<ActionResult[]>([]);
  // only while a conflict is shown: a later request may resolve it
  const requests = usePlayground((s) => (results.some((r) => r.status === 409) ? s.requests : NO_REQUESTS));
  const [busy, setBusy] = useState(false);
  const [wantMonaco, setWantMonaco] = useState(false);
  const [schema, setSchema] = useState<JsonSchema | undefined>();
  const [help, setHelp] = useState(false);
  const ids = { manager: useId(), recent: useId(), validation: useId(), patchType: useId(), target: useId(), help: useId() };

  // Monaco after the first paint
  useEffect(() => {
    const t = setTimeout(() => setWantMonaco(true), 0);
    return () => clearTimeout(t);
  }, []);

  useEffect(() => {
    if (!editorRequest) return;
    editorText.set(editorRequest.text);
    // a panel put an object in the editor: Patch now targets that object, never the one shown before
    const target = formatPatchTarget(splitDocuments(editorRequest.text).find((d) => d.value)?.value);
    editorSettings.set({ ...editorSettings.get(), patchTarget: target });
  }, [editorRequest]);

  useEffect(() => {
    if (!wantMonaco) return;
    let live = true;
    loadSchema(store).then(
      (s) => live && setSchema(s),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [store, wantMonaco, epoch]);

  const set = useCallback((patch: Partial<EditorSettings>) => editorSettings.set({ ...editorSettings.get(), ...patch } as EditorSettings), []);

  const run = useCallback(
    async (action: EditorAction) => {
      setBusy(true);
      const current = editorSettings.get();
      try {
        if (action === 'delete' && !current.dryRun && !(await confirmEditorDelete(store, editorText.get()))) {
          setResults([{ ok: true, text: 'Delete cancelled: nothing was deleted.' }]);
          return;
        }
        const out = await runAction(store, action, editorText.get(), current);
        setResults(out);
        if (action === 'apply' || current.fieldManager) {
          const next = rememberManager(readRecent(), current.fieldManager);
          localStorage.setItem(RECENT_KEY, JSON.stringify(next));
          setRecent(next);
        }
        if (action !== 'patch' && action !== 'delete' && out.some((r) => r.ok)) {
          // the object just written is the one shown: Patch targets it (not an earlier one)
          const first = splitDocuments(editorText.get()).find((d) => d.value)?.value;
          const t = formatPatchTarget(first);
          if (t) set({ patchTarget: t });
        }
      } catch (e) {
        setResults([{ ok: false, text: e instanceof Error ? e.message : String(e) }]);
      } finally {
        setBusy(false);
      }
    },
    [store, set],
  );

  const onShortcut = useCallback(
    (a: ShortcutAction) => {
      if (a === 'help') return setHelp((h) => !h);
      if (a === 'apply') return void run('apply');
      // save: Replace when the manifest carries a resourceVersion (it came from the server), else Create
      const first = splitDocuments(editorText.get())[0]?.value as { metadata?: { resourceVersion?: unknown } } | undefined;
      void run(first?.metadata?.resourceVersion ? 'replace' : 'create');
    },
    [run],
  );

  // the same shortcuts outside Monaco (the plain textarea, the toolbar), only while the focus is in the
  // editor's own section: Ctrl+Enter in the CEL box or the raw request form belongs to that panel
  const onSectionKey = (e: React.KeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey) || e.defaultPrevented) return;
    if ((e.target as HTMLElement | null)?.closest?.('.monaco-host')) return; // Monaco has its own commands
    if (e.key === 'Enter') {
      e.preventDefault();
      onShortcut('apply');
    } else if (e.key === 's' || e.key === 'S') {
      e.preventDefault();
      onShortcut('save');
    } else if (e.key === '?' || (e.key === '/' && e.shiftKey)) {
      e.preventDefault();
      onShortcut('help');
    }
  };

  const plain = (
    <textarea
      className="plain-editor"
      aria-label="Manifest editor"
      spellCheck={false}
      value={text}
      onChange={(e) => editorText.set(e.target.value)}
      data-testid="plain-editor"
    />
  );

  const docCount = useMemo(() => splitDocuments(text).length, [text]);

  return (
    <section className="editor" aria-labelledby="editor-heading" onKeyDown={onSectionKey}>
      <div className="editor-toolbar" role="toolbar" aria-label="Editor actions" ref={actionsBar}>
        <h2 id="editor-heading" className="visually-hidden">
          Manifest editor
        </h2>
        <button type="button" disabled={busy} onClick={() => void run('create')} title="POST each document (Ctrl/Cmd+S)">
          Create
        </button>
        <button type="button" disabled={busy} onClick={() => void run('replace')} title="PUT each document">
          Replace
        </button>
        <button type="button" disabled={busy} className="primary" onClick={() => void run('apply')} title="Server-side apply each document (Ctrl/Cmd+Enter)">
          Apply
        </button>
        <button type="button" disabled={busy} onClick={() => void run('patch')} title="PATCH the target with the editor text as the patch body">
          Patch
        </button>
        <button type="button" disabled={busy} onClick={() => void run('delete')} title="DELETE each document's object">
          Delete
        </button>
        <span className="sep" />
        <label className="check">
          <input type="checkbox" checked={settings.dryRun} onChange={(e) => set({ dryRun: e.target.checked })} /> Dry run
        </label>
        <label className="check">
          <input type="checkbox" checked={settings.force} onChange={(e) => set({ force: e.target.checked })} /> Force
        </label>
        <label htmlFor={ids.manager}>Field manager</label>
        <input
          id={ids.manager}
          list={ids.recent}
          size={12}
          value={settings.fieldManager}
          onChange={(e) => set({ fieldManager: e.target.value })}
        />
        <datalist id={ids.recent}>
          {recent.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </div>
      <div className="editor-toolbar second" role="toolbar" aria-label="Request options" ref={optionsBar}>
        <label htmlFor={ids.validation}>Field validation</label>
        <select id={ids.validation} value={settings.fieldValidation} onChange={(e) => set({ fieldValidation: e.target.value as FieldValidation })}>
          <option value="">default (Warn)</option>
          <option value="Ignore">Ignore</option>
          <option value="Warn">Warn</option>
          <option value="Strict">Strict</option>
        </select>
        <label htmlFor={ids.patchType}>Patch type</label>
        <select id={ids.patchType} value={settings.patchType} onChange={(e) => set({ patchType: e.target.value as PatchType })}>
          <option value="strategic">strategic merge</option>
          <option value="merge">JSON merge</option>
          <option value="json">JSON patch</option>
        </select>
        <label htmlFor={ids.target}>Patch target</label>
        <input
          id={ids.target}
          size={24}
          placeholder="apps/v1 Deployment default/web"
          value={settings.patchTarget}
          onChange={(e) => set({ patchTarget: e.target.value })}
        />
        <button
          type="button"
          title="Set the patch target from the first document's apiVersion, kind, namespace and name"
          onClick={() => {
            const t = formatPatchTarget(splitDocuments(editorText.get()).find((d) => d.value)?.value);
            if (t) set({ patchTarget: t });
          }}
        >
          Target from manifest
        </button>
        <span className="help-anchor">
          <button type="button" aria-expanded={help} aria-controls={ids.help} onClick={() => setHelp((h) => !h)}>
            Shortcuts
          </button>
          {help && (
            <div
              id={ids.help}
              role="dialog"
              aria-label="Keyboard shortcuts"
              className="popover"
              onKeyDown={(e) => {
                if (e.key === 'Escape') setHelp(false);
              }}
            >
              <dl>
                <dt>
                  <kbd>Ctrl/Cmd</kbd>+<kbd>Enter</kbd>
                </dt>
                <dd>Apply (server-side) every document</dd>
                <dt>
                  <kbd>Ctrl/Cmd</kbd>+<kbd>S</kbd>
                </dt>
                <dd>Create, or Replace when the manifest has a resourceVersion</dd>
                <dt>
                  <kbd>Ctrl/Cmd</kbd>+<kbd>Shift</kbd>+<kbd>/</kbd>
                </dt>
                <dd>Show or hide this list</dd>
                <dt>
                  <kbd>Ctrl</kbd>+<kbd>Space</kbd>
                </dt>
                <dd>Completion from the server's OpenAPI schema</dd>
              </dl>
              <button type="button" autoFocus onClick={() => setHelp(false)}>
                Close
              </button>
            </div>
          )}
        </span>
      </div>
      <div className="editor-body">
        {!loaded ? (
          <div className="skeleton" aria-hidden="true" />
        ) : wantMonaco ? (
          <Suspense fallback={plain}>
            <MonacoView value={text} onChange={editorText.set} theme={theme} schema={schema} onShortcut={onShortcut} label="Manifest editor" fontSize={presenter ? 20 : 13} />
          </Suspense>
        ) : (
          plain
        )}
      </div>
      <div className="editor-status" role="status" aria-label="Action results" data-testid="action-results">
        {results.length === 0 ? (
          <span className="hint">
            {docCount} document{docCount === 1 ? '' : 's'}
            {schema ? ' · schema from /openapi/v3 loaded' : ''}
          </span>
        ) : (
          <ul>
            {results.map((r, i) => {
              const resolved = r.status === 409 && r.requestId !== undefined && r.path ? conflictResolution({ id: r.requestId, path: r.path }, requests) : undefined;
              return resolved ? (
                <li key={i} className="ok" data-testid="conflict-resolved">
                  {resolved.status} conflict resolved from the {resolved.source}
                  {/[?&]force=true/.test(resolved.path) ? ' (force)' : ''}: {r.text.replace(/^409 /, '').replace(/:.*$/s, '')}
                </li>
              ) : (
                <li key={i} className={r.ok ? 'ok' : 'error'}>
                  {r.text}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
