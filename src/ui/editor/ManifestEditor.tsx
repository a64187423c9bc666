// The manifest editor: Monaco (lazy) in YAML, and the actions Create, Replace, Apply, Patch and Delete
// with their options (dry run, field validation, field manager with recent managers, force, patch type and
// target). Every request goes through the store's logged fetch (source "editor").
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { usePlayground, usePlaygroundStore, type LoggedRequest, type PlaygroundStore } from '../playground.js';
import type { FieldValidation, PatchType } from './options.js';
import { rememberManager } from './options.js';
import type { EditorAction } from './actions.js';
import { countDocuments } from './documents.js';
import type { JsonSchema } from './schemas.js';
import { editorLoaded, editorSettings, editorText, type EditorSettings } from './state.js';
import type { ShortcutAction } from './monaco-view.js';
import type { ActionResult } from './run.js';
import { conflictResolution } from '../console/conflicts.js';
import { useRovingFocus } from '../a11y/roving.js';

const MonacoView = lazy(() => import('./monaco-view.js'));
/** The actions (YAML parsing, planning, sending): loaded on first use, and early after the first paint. */
const actions = () => import('./run.js');

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

async function loadSchema(store: PlaygroundStore): Promise<JsonSchema> {
  const { combinedSchema, kindSchemas, openApiDocumentUrls } = await import('./schemas.js');
  const urls = openApiDocumentUrls(await fetchJson(store, '/openapi/v3'));
  const docs = await Promise.all(urls.map((u) => fetchJson(store, u).catch(() => undefined)));
  return combinedSchema(kindSchemas(docs.filter(Boolean)));
}

const NO_REQUESTS: LoggedRequest[] = [];

function useValue<T>(s: { get(): T; subscribe(l: () => void): () => void }): T {
  return useSyncExternalStore(s.subscribe, s.get);
}

/** The text area that is the editor until Monaco is there (controlled: it re-renders alone as it is typed in). */
function PlainEditor() {
  const text = useValue(editorText);
  return (
    <textarea
      className="plain-editor"
      aria-label="Manifest editor"
      spellCheck={false}
      value={text}
      onChange={(e) => editorText.set(e.target.value)}
      data-testid="plain-editor"
    />
  );
}

/** "N documents", counted without parsing; it alone re-renders when the text changes (in Monaco: once typing pauses). */
function DocumentCount() {
  const text = useValue(editorText);
  const n = useMemo(() => countDocuments(text), [text]);
  return (
    <>
      {n} document{n === 1 ? '' : 's'}
    </>
  );
}

/** `after`: Monaco loads once it settles (the frame passes its connection); without it, right after the first paint. */
export function ManifestEditor({ after }: { after?: Promise<unknown> } = {}) {
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

  // Monaco (and the actions' module) after the first paint, and once `after` settles (the frame passes its
  // connection) when the main thread is idle: Monaco's large chunk runs on the main thread as it loads,
  // and the plain text area (the same text) is usable until it is there
  useEffect(() => {
    let live = true;
    let idle: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = () => {
      if (!live) return;
      setWantMonaco(true);
      void actions();
    };
    const whenIdle = () => {
      if (!live) return;
      if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(start, { timeout: 500 });
      else timer = setTimeout(start, 0);
    };
    if (after) void after.then(whenIdle, whenIdle);
    else timer = setTimeout(start, 0);
    return () => {
      live = false;
      clearTimeout(timer);
      if (idle !== undefined) cancelIdleCallback(idle);
    };
  }, [after]);

  useEffect(() => {
    if (!editorRequest) return;
    editorText.set(editorRequest.text);
    // a panel put an object in the editor: Patch now targets that object, never the one shown before
    let live = true;
    void actions().then(({ patchTargetOf }) => {
      if (live) editorSettings.set({ ...editorSettings.get(), patchTarget: patchTargetOf(editorRequest.text) });
    });
    return () => {
      live = false;
    };
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
        const { confirmEditorDelete, patchTargetOf, runAction } = await actions();
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
          const t = patchTargetOf(editorText.get());
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
      void actions().then(({ hasResourceVersion }) => run(hasResourceVersion(editorText.get()) ? 'replace' : 'create'));
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

  const plain = <PlainEditor />;

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
          onClick={() =>
            void actions().then(({ patchTargetOf }) => {
              const t = patchTargetOf(editorText.get());
              if (t) set({ patchTarget: t });
            })
          }
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
            <MonacoView text={editorText} theme={theme} schema={schema} onShortcut={onShortcut} label="Manifest editor" fontSize={presenter ? 20 : 13} />
          </Suspense>
        ) : (
          plain
        )}
      </div>
      <div className="editor-status" role="status" aria-label="Action results" data-testid="action-results">
        {results.length === 0 ? (
          <span className="hint">
            <DocumentCount />
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
