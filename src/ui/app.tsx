// The playground frame, editor-first like the TypeScript playground: a top bar (cluster, base_url, engine
// mode, theme, share), the resource browser on the left, the manifest editor in the centre, and a tabbed
// dock on the right (request console, watch timeline, managed fields, CEL). Panels other than the editor
// and the console live in ./panels/<name>/index.tsx and are loaded when present (import.meta.glob), so the
// build works whichever panels exist. Every panel reaches the API only through the store's logged fetch.
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState, type ComponentType } from 'react';
import { settledConnection, type ApiConnection } from './api.js';
import { PlaygroundContext, PlaygroundStore, usePlayground, usePlaygroundStore, type Theme } from './playground.js';
import { ManifestEditor } from './editor/ManifestEditor.js';
import { ShareButton } from './share/ShareButton.js';
import { useScenario } from './share/use-scenario.js';
import { ADMIN, actingUserId, loadActingUser } from './auth/identity.js';
import { listPath, listableResources, resourceId, resourceLabel, shortAge, simulationStatus, type ListableResource } from './settings.js';
import { announceClusterSettings, readClusterSettings, SETTINGS_CHANGED_HEADER, writeClusterSettings, type ClusterSettings } from '../adapters/idb/cluster-settings.js';
import { PanelErrorBoundary } from './error-boundary.js';
import { useRovingFocus } from './a11y/roving.js';
import { panelShortcut, readPresenter, stepView, writePresenter } from './a11y/presenter.js';


// Loaded after the first paint (the store records requests and denials from the start; only these views
// are late): the request console, the cluster menu, the acting user, cluster settings, refused requests.
const RequestConsole = lazy(() => import('./console/RequestConsole.js').then((m) => ({ default: m.RequestConsole })));
const ClusterMenu = lazy(() => import('./clusters/ClusterMenu.js').then((m) => ({ default: m.ClusterMenu })));
const ActingUserSwitcher = lazy(() => import('./auth/ActingUser.js').then((m) => ({ default: m.ActingUserSwitcher })));
const ClusterSettingsButton = lazy(() => import('./cluster-settings.js').then((m) => ({ default: m.ClusterSettingsButton })));
const DenialsView = lazy(() => import('./auth/Denials.js').then((m) => ({ default: m.DenialsPanel })));

/** The refused requests, once there are any (their panel's code is loaded then). */
function DenialsPanel() {
  const count = usePlayground((s) => s.denials?.length ?? 0);
  if (count === 0) return null;
  return (
    <Suspense fallback={null}>
      <DenialsView />
    </Suspense>
  );
}

const panelModules = import.meta.glob<Record<string, unknown>>('./panels/*/index.tsx');

/** Forgets the failed loads of panels, so that they are fetched again when next rendered. */
const panelRetries: (() => void)[] = [];
const retryFailedPanels = () => panelRetries.forEach((r) => r());

/**
 * A panel component from ./panels/<dir>/index.tsx (export `name`), or undefined when the file is absent. A
 * load that failed (its chunk could not be fetched) is tried again after retryFailedPanels (the panel
 * boundary's "Reload this panel").
 */
function panel(dir: string, name: string): ComponentType | undefined {
  const load = panelModules[`./panels/${dir}/index.tsx`];
  if (!load) return undefined;
  let failed = false;
  const make = (): ComponentType =>
    lazy(async () => {
      try {
        const mod = await load();
        const C = mod[name] as ComponentType | undefined;
        return { default: C ?? (() => <p className="hint">./panels/{dir}/index.tsx has no export {name}.</p>) };
      } catch (err) {
        failed = true;
        throw err;
      }
    });
  let current = make();
  panelRetries.push(() => {
    if (!failed) return;
    failed = false;
    current = make();
  });
  return function Panel() {
    const C = current;
    return <C />;
  };
}

const ResourceBrowser = panel('browser', 'ResourceBrowser');
const WatchTimeline = panel('timeline', 'WatchTimeline');
const ManagedFieldsViewer = panel('managed-fields', 'ManagedFieldsViewer');
const CelEvaluator = panel('cel', 'CelEvaluator');
const Terminal = panel('terminal', 'Terminal');
const Lessons = panel('lessons', 'Lessons');
// the time slider over the cluster's stored history (src/ui/history)
const HistoryPanel = lazy(() => import('./history/index.js').then((m) => ({ default: m.HistoryPanel })));
const AuditLogPanel = panel('audit', 'AuditLogPanel');

type Loadable<T> = { state: 'loading' } | { state: 'ok'; value: T } | { state: 'error'; message: string };

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const THEME_KEY = 'kube-playground:theme';

/** The theme: the saved choice, else the system's preference. */
export function initialTheme(): Theme {
  try {
    const saved = localStorage.getItem(THEME_KEY);
    if (saved === 'light' || saved === 'dark') return saved;
  } catch {
    // no storage
  }
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function App({ connection, store = new PlaygroundStore({ theme: initialTheme() }) }: { connection: Promise<ApiConnection>; store?: PlaygroundStore }) {
  return (
    <PlaygroundContext.Provider value={store}>
      <Frame connection={connection} />
    </PlaygroundContext.Provider>
  );
}

function Frame({ connection }: { connection: Promise<ApiConnection> }) {
  const store = usePlaygroundStore();
  const [conn, setConn] = useState<Loadable<ApiConnection>>(() => {
    // already connected (the worker controls the page, as on a repeat visit): shown by the first render, with
    // the acting user kept for this cluster set before any panel sends a request
    const value = settledConnection(connection);
    if (!value) return { state: 'loading' };
    store.setActingUser(loadActingUser(globalThis.localStorage, value.cluster));
    return { state: 'ok', value };
  });
  const shownAtFirst = useRef(conn.state === 'ok' ? conn.value : undefined);
  const theme = usePlayground((s) => s.theme);
  // panels that list and watch start again when the acting user changes (their requests carry it)
  const identity = usePlayground((s) => actingUserId(s.actingUser ?? ADMIN));
  const shareWarning = useScenario();
  const header = useRef<HTMLElement>(null);
  useRovingFocus(header);
  const layout = useLayout();
  useEffect(() => {
    let live = true;
    connection.then(
      (value) => {
        if (!live || value === shownAtFirst.current) return;
        // the acting user kept for this cluster, before any panel sends a request
        store.setActingUser(loadActingUser(globalThis.localStorage, value.cluster));
        setConn({ state: 'ok', value });
      },
      (err: unknown) => live && setConn({ state: 'error', message: errorText(err) }),
    );
    return () => {
      live = false;
    };
  }, [connection]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  return (
    <div className={layout.presenter ? 'app presenter' : 'app'} data-layout={layout.presenter ? 'presenter' : 'normal'}>
      <a className="skip-link" href="#editor" onClick={(e) => {
        e.preventDefault();
        layout.goTo('editor');
      }}>
        Skip to the editor
      </a>
      <header className="top" ref={header}>
        <h1>Kubernetes API playground</h1>
        {conn.state === 'ok' ? <ConnectionBar conn={conn.value} /> : <span className="top-fill" />}
        {conn.state === 'ok' && (
          <Suspense fallback={null}>
            <ClusterMenu cluster={conn.value.cluster} />
            <ActingUserSwitcher cluster={conn.value.cluster} />
            <ClusterSettingsButton cluster={conn.value.cluster} />
          </Suspense>
        )}
        <ThemeToggle />
        <button type="button" aria-pressed={layout.presenter} onClick={layout.togglePresenter} aria-keyshortcuts="Alt+Shift+P" title="Presenter layout: large type, one panel at a time (Alt+Shift+P; Alt+1..9 switch panels)" data-testid="presenter-toggle">
          Presenter
        </button>
        <ShareButton />
      </header>
      {conn.state === 'ok' && conn.value.warnings.length + (shareWarning ? 1 : 0) > 0 && (
        <div className="banner">
          {[...conn.value.warnings, ...(shareWarning ? [shareWarning] : [])].map((w) => (
            <p key={w} role="alert" className="error">
              {w}
            </p>
          ))}
        </div>
      )}
      {conn.state === 'ok' && <DenialsPanel />}
      {conn.state === 'error' ? (
        <main className="fatal">
          <p role="alert" className="error">
            The API server could not be started: {conn.message}
          </p>
        </main>
      ) : (
        <div className="workspace" data-view={layout.view}>
          {layout.presenter && <ViewBar layout={layout} />}
          {/* the editor comes first in the document (and in the tab order); the grid places the browser on its left */}
          <main className="center" id="editor" tabIndex={-1}>
            <PanelErrorBoundary name="editor">
              <ManifestEditor after={connection} />
            </PanelErrorBoundary>
          </main>
          <aside className="left" aria-label="Resources" key={`left-${identity}`} tabIndex={-1}>
            {conn.state === 'loading' ? (
              <p role="status">Starting the API server…</p>
            ) : ResourceBrowser ? (
              <PanelErrorBoundary name="resource browser" onRetry={retryFailedPanels}>
                <Suspense fallback={<div className="skeleton" aria-hidden="true" />}>
                  <ResourceBrowser />
                </Suspense>
              </PanelErrorBoundary>
            ) : (
              <BasicBrowser />
            )}
          </aside>
          <Dock key={`dock-${identity}`} active={layout.dockTab} onChoose={layout.chooseDockTab} />
        </div>
      )}
    </div>
  );
}

/** The views of the presenter layout (one at a time) and of the Alt+1..9 shortcuts, in screen order. */
function views(): { id: string; label: string }[] {
  return [{ id: 'resources', label: 'Resources' }, { id: 'editor', label: 'Editor' }, ...TABS.map((t) => ({ id: t.id, label: t.label }))];
}

/** Focuses the manifest editor (Monaco's input, or the plain text area before Monaco has loaded). */
export function focusEditor(): void {
  const input = document.querySelector<HTMLElement>(
    '.center .monaco-editor .native-edit-context, .center .monaco-editor textarea.inputarea, .center .monaco-editor textarea, .center .plain-editor',
  );
  (input ?? document.getElementById('editor'))?.focus();
}

/** Moves focus into view `id` after it is shown: the editor's input, the browser, or the panel's tab. */
function focusView(id: string): void {
  if (id === 'editor') return focusEditor();
  if (id === 'resources') {
    const left = document.querySelector<HTMLElement>('.workspace > .left');
    const first = left?.querySelector<HTMLElement>('button:not([disabled]):not([tabindex="-1"]), input, select, [tabindex="0"]');
    (first ?? left)?.focus();
    return;
  }
  const tab = document.querySelector<HTMLElement>(`.view-bar [data-view="${id}"]`) ?? document.querySelector<HTMLElement>(`.dock [role="tab"][data-view="${id}"]`);
  tab?.focus();
}

interface Layout {
  presenter: boolean;
  togglePresenter(): void;
  /** The view shown in the presenter layout (and the last one chosen by keyboard). */
  view: string;
  goTo(id: string): void;
  dockTab: string;
  chooseDockTab(id: string): void;
}

/** The frame's layout: normal or presenter (kept per browser), the current view and the dock's tab. */
function useLayout(): Layout {
  const [presenter, setPresenter] = useState(() => readPresenter());
  const [dockTab, setDockTab] = useState(initialTab);
  const [view, setView] = useState(() => (new URLSearchParams(location.search).has('lesson') ? 'lessons' : 'editor'));
  const pendingFocus = useRef<string | undefined>(undefined);
  // bumped by goTo so the focus effect runs even when the view does not change
  const [focusRequests, setFocusRequests] = useState(0);
  const togglePresenter = useCallback(() => {
    setPresenter((on) => {
      writePresenter(!on);
      return !on;
    });
  }, []);
  const goTo = useCallback((id: string) => {
    setView(id);
    if (TABS.some((t) => t.id === id)) setDockTab(id);
    pendingFocus.current = id;
    setFocusRequests((n) => n + 1);
  }, []);
  const chooseDockTab = useCallback((id: string) => {
    setDockTab(id);
    // in the presenter layout, choosing a panel (its tab, a request shown in the console) shows it
    setView((v) => (TABS.some((t) => t.id === v) ? id : v));
  }, []);
  useEffect(() => {
    const id = pendingFocus.current;
    if (!id) return;
    pendingFocus.current = undefined;
    requestAnimationFrame(() => focusView(id));
  }, [focusRequests]);
  const store = usePlaygroundStore();
  useEffect(() => {
    document.documentElement.dataset.layout = presenter ? 'presenter' : 'normal';
    store.setPresenter(presenter);
  }, [presenter, store]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const all = views();
      const s = panelShortcut(e, all.length);
      if (!s) return;
      e.preventDefault();
      e.stopPropagation();
      if (s.type === 'presenter') togglePresenter();
      else if (s.type === 'view') goTo(all[s.index].id);
      else goTo(all[stepView(Math.max(0, all.findIndex((v) => v.id === view)), s.delta, all.length)].id);
    };
    // capture: the shortcuts work wherever focus is (Monaco binds none of them)
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [togglePresenter, goTo, view]);
  return { presenter, togglePresenter, view, goTo, dockTab, chooseDockTab };
}

/** The presenter layout's panel switcher: one button per view (a single tab stop; arrows move). */
function ViewBar({ layout }: { layout: Layout }) {
  const bar = useRef<HTMLElement>(null);
  useRovingFocus(bar);
  return (
    <nav className="view-bar" aria-label="Presenter views" ref={bar} data-testid="view-bar">
      {views().map((v, i) => (
        <button
          key={v.id}
          type="button"
          data-view={v.id}
          aria-current={v.id === layout.view ? 'page' : undefined}
          aria-keyshortcuts={`Alt+${i + 1}`}
          onClick={() => layout.goTo(v.id)}
        >
          {v.label} <kbd aria-hidden="true">Alt+{i + 1}</kbd>
        </button>
      ))}
    </nav>
  );
}

function ThemeToggle() {
  const store = usePlaygroundStore();
  const theme = usePlayground((s) => s.theme);
  const toggle = () => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    store.setTheme(next);
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      // not saved
    }
  };
  return (
    <button type="button" aria-pressed={theme === 'dark'} onClick={toggle} title="Toggle light and dark themes">
      Dark theme
    </button>
  );
}

function ConnectionBar({ conn }: { conn: ApiConnection }) {
  const inputId = useId();
  const [copied, setCopied] = useState('');
  const copy = useCallback(async () => {
    try {
      await navigator.clipboard.writeText(conn.baseUrl);
      setCopied('Copied base_url to the clipboard.');
      setTimeout(() => setCopied(''), 4000);
    } catch {
      const input = document.getElementById(inputId) as HTMLInputElement | null;
      input?.select();
      setCopied('Copying is not allowed here: the address is selected, press Ctrl+C (Cmd+C) to copy it.');
    }
  }, [conn.baseUrl, inputId]);
  const hint =
    conn.mode === 'service-worker'
      ? `Any client in this browser can call it: await (await fetch('${conn.baseUrl}/api/v1/namespaces')).json()`
      : `From the devtools console: await (await playground.apiFetch('/api/v1/namespaces')).json()`;

  return (
    <div className="connection" role="group" aria-label="Cluster">
      <span className="field">
        <span className="hint">cluster</span> <strong data-testid="cluster-name">{conn.cluster}</strong>
      </span>
      <span className="field base-url">
        <label htmlFor={inputId}>base_url</label>
        <input id={inputId} readOnly value={conn.baseUrl} title={hint} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy base_url
        </button>
      </span>
      <span className="field">
        <span className="hint">served by</span>{' '}
        <span data-testid="engine-mode" title={conn.fallbackReason}>
          {conn.mode === 'service-worker' ? 'service worker' : `in-page engine (${conn.fallbackReason ?? 'fallback'})`}
        </span>
      </span>
      <SimulationSwitch cluster={conn.cluster} />
      <span role="status" className="toast">
        {copied}
      </span>
    </div>
  );
}

/**
 * The cluster's simulation switch (cluster settings kept in IndexedDB; the engine restarts with them). Which
 * of the simulated controllers run is chosen in the Cluster settings dialog.
 */
function SimulationSwitch({ cluster }: { cluster: string }) {
  const store = usePlaygroundStore();
  const [settings, setSettings] = useState<ClusterSettings | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void readClusterSettings(cluster).then((s) => live && setSettings(s));
    return () => {
      live = false;
    };
  }, [cluster]);
  const save = async (next: ClusterSettings) => {
    setSettings(next);
    await writeClusterSettings(cluster, next);
    announceClusterSettings(cluster);
    // and in band, so this page's next request is served by an engine started with the new settings
    await store.fetch('/x-playground/settings', { headers: { Accept: 'application/json', [SETTINGS_CHANGED_HEADER]: 'true' } }, 'settings').catch(() => undefined);
  };
  if (settings === undefined) return null;
  return (
    <span className="field simulation">
      <label>
        <input type="checkbox" checked={settings.simulated} onChange={(e) => void save({ ...settings, simulated: e.currentTarget.checked })} data-testid="simulation-switch" /> simulated
      </label>{' '}
      <span className="hint" data-testid="simulation-status">
        {simulationStatus(settings.simulated)}
      </span>
    </span>
  );
}

interface DockTab {
  id: string;
  label: string;
  Component?: ComponentType;
}

const TABS: DockTab[] = [
  { id: 'console', label: 'Requests', Component: RequestConsole },
  { id: 'timeline', label: 'Watch timeline', Component: WatchTimeline },
  { id: 'managed-fields', label: 'Managed fields', Component: ManagedFieldsViewer },
  { id: 'history', label: 'History', Component: HistoryPanel },
  { id: 'cel', label: 'CEL', Component: CelEvaluator },
  { id: 'terminal', label: 'Terminal', Component: Terminal },
  { id: 'lessons', label: 'Lessons', Component: Lessons },
  { id: 'audit', label: 'Audit', Component: AuditLogPanel },
];

/** The tab a page opens on: Lessons when the URL names a lesson (a reload resumes it), else the console. */
function initialTab(): string {
  return new URLSearchParams(location.search).has('lesson') ? 'lessons' : 'console';
}

function Dock({ active, onChoose }: { active: string; onChoose: (id: string) => void }) {
  const [mounted, setMounted] = useState<Set<string>>(() => new Set([active]));
  const focused = usePlayground((s) => s.focusedRequest);
  const base = useId();
  useEffect(() => {
    setMounted((m) => (m.has(active) ? m : new Set([...m, active])));
  }, [active]);
  const choose = onChoose;
  useEffect(() => {
    if (focused) choose('console');
  }, [focused]);
  const onKey = (e: React.KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === active);
    const next = e.key === 'ArrowRight' ? (i + 1) % TABS.length : e.key === 'ArrowLeft' ? (i + TABS.length - 1) % TABS.length : -1;
    if (next < 0) return;
    e.preventDefault();
    choose(TABS[next].id);
    document.getElementById(`${base}-tab-${TABS[next].id}`)?.focus();
  };
  return (
    <section className="dock" aria-label="Panels">
      <div role="tablist" aria-label="Panels" className="tabs" onKeyDown={onKey} data-testid="dock-tabs">
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`${base}-tab-${t.id}`}
            data-view={t.id}
            role="tab"
            type="button"
            aria-selected={t.id === active}
            aria-controls={`${base}-panel-${t.id}`}
            tabIndex={t.id === active ? 0 : -1}
            onClick={() => choose(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {TABS.map((t) => (
        <div
          key={t.id}
          id={`${base}-panel-${t.id}`}
          role="tabpanel"
          aria-labelledby={`${base}-tab-${t.id}`}
          hidden={t.id !== active}
          className="tabpanel"
        >
          {(mounted.has(t.id) || t.id === active) &&
            (t.Component ? (
              <PanelErrorBoundary name={t.label} onRetry={retryFailedPanels}>
                <Suspense fallback={<div className="skeleton" aria-hidden="true" />}>
                  <t.Component />
                </Suspense>
              </PanelErrorBoundary>
            ) : (
              <p className="hint">This panel is not built yet.</p>
            ))}
        </div>
      ))}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------
// The basic browser: namespaces and the objects of one kind, shown until ./panels/browser exists.

interface ObjectMetaView {
  name?: string;
  namespace?: string;
  creationTimestamp?: string | null;
  resourceVersion?: string;
}
interface ListView {
  metadata?: { resourceVersion?: string };
  items?: { metadata?: ObjectMetaView }[];
}
interface GroupList {
  groups?: { preferredVersion?: { groupVersion?: string } }[];
}

const CONFIGMAPS: ListableResource = { groupVersion: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true };

async function getJson<T>(store: PlaygroundStore, path: string, signal?: AbortSignal): Promise<T> {
  const res = await store.fetch(path, { headers: { Accept: 'application/json' }, signal }, 'browser');
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new Error(`${res.status}: ${typeof message === 'string' ? message : text.slice(0, 200) || res.statusText}`);
  }
  return body as T;
}

function BasicBrowser() {
  const store = usePlaygroundStore();
  const epoch = usePlayground((s) => s.discoveryEpoch ?? 0);
  const [namespaces, setNamespaces] = useState<Loadable<string[]>>({ state: 'loading' });
  const [namespace, setNamespace] = useState('default');
  const [resources, setResources] = useState<ListableResource[]>([CONFIGMAPS]);
  const [selected, setSelected] = useState(resourceId(CONFIGMAPS));
  const [refreshes, setRefreshes] = useState(0);
  const refresh = useCallback(() => setRefreshes((n) => n + 1), []);

  useEffect(() => {
    const abort = new AbortController();
    getJson<ListView>(store, '/api/v1/namespaces', abort.signal).then(
      (list) => setNamespaces({ state: 'ok', value: (list.items ?? []).map((i) => i.metadata?.name ?? '').filter(Boolean) }),
      (err: unknown) => !abort.signal.aborted && setNamespaces({ state: 'error', message: errorText(err) }),
    );
    return () => abort.abort();
  }, [store, refreshes]);

  useEffect(() => {
    const abort = new AbortController();
    void discoverResources(store, abort.signal).then((found) => {
      if (!abort.signal.aborted && found.length > 0) setResources(found);
    });
    return () => abort.abort();
  }, [store, epoch]);

  const resource = resources.find((r) => resourceId(r) === selected) ?? CONFIGMAPS;

  return (
    <div className="basic-browser">
      <nav aria-labelledby="namespaces-heading" className="namespaces">
        <h2 id="namespaces-heading">Namespaces</h2>
        {namespaces.state === 'loading' && <p role="status">Loading…</p>}
        {namespaces.state === 'error' && (
          <p role="alert" className="error">
            {namespaces.message}
          </p>
        )}
        {namespaces.state === 'ok' && (
          <ul aria-label="Namespaces">
            {namespaces.value.map((ns) => (
              <li key={ns}>
                <button type="button" aria-pressed={ns === namespace} onClick={() => setNamespace(ns)}>
                  {ns}
                </button>
              </li>
            ))}
          </ul>
        )}
      </nav>
      <ObjectsPanel namespace={namespace} resource={resource} resources={resources} onSelect={setSelected} refreshes={refreshes} onRefresh={refresh} />
    </div>
  );
}

function ObjectsPanel(props: {
  namespace: string;
  resource: ListableResource;
  resources: ListableResource[];
  onSelect: (id: string) => void;
  refreshes: number;
  onRefresh: () => void;
}) {
  const { namespace, resource, resources, onSelect, refreshes, onRefresh } = props;
  const store = usePlaygroundStore();
  const requests = usePlayground((s) => s.requests.length);
  const selectId = useId();
  const [list, setList] = useState<Loadable<ListView>>({ state: 'loading' });
  const path = listPath(resource, namespace);

  useEffect(() => {
    const abort = new AbortController();
    setList((l) => (l.state === 'ok' ? l : { state: 'loading' }));
    getJson<ListView>(store, path, abort.signal).then(
      (value) => setList({ state: 'ok', value }),
      (err: unknown) => !abort.signal.aborted && setList({ state: 'error', message: errorText(err) }),
    );
    return () => abort.abort();
    // `requests` is not a dependency: the list refreshes on demand (Refresh) and when the path changes
  }, [store, path, refreshes]);
  void requests;

  const open = async (name: string) => {
    const obj = await getJson<Record<string, unknown>>(store, `${path}/${encodeURIComponent(name)}`);
    const meta = { ...(obj.metadata as Record<string, unknown>) };
    delete meta.managedFields;
    const { toYaml } = await import('./editor/actions.js');
    store.openInEditor(toYaml({ ...obj, metadata: meta }));
  };

  const now = Date.now();
  return (
    <section aria-labelledby="objects-heading" className="objects">
      <h2 id="objects-heading">Objects</h2>
      <div className="toolbar">
        <label htmlFor={selectId}>Kind</label>
        <select id={selectId} value={resourceId(resource)} onChange={(e) => onSelect(e.target.value)}>
          {resources.map((r) => (
            <option key={resourceId(r)} value={resourceId(r)}>
              {resourceLabel(r)}
            </option>
          ))}
        </select>
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
      </div>
      <code className="hint">GET {path}</code>
      {list.state === 'loading' && <p role="status">Loading…</p>}
      {list.state === 'error' && (
        <p role="alert" className="error">
          {list.message}
        </p>
      )}
      {list.state === 'ok' && (
        <table>
          <caption>
            {resource.kind} objects in namespace {namespace}
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Age</th>
              <th scope="col">resourceVersion</th>
            </tr>
          </thead>
          <tbody>
            {(list.value.items ?? []).length === 0 ? (
              <tr>
                <td colSpan={3}>No {resource.kind} objects in this namespace.</td>
              </tr>
            ) : (
              (list.value.items ?? []).map((item) => (
                <tr key={item.metadata?.name}>
                  <td>
                    <button type="button" className="link" title="Open in the editor" onClick={() => void open(item.metadata?.name ?? '')}>
                      {item.metadata?.name}
                    </button>
                  </td>
                  <td>{shortAge(item.metadata?.creationTimestamp, now)}</td>
                  <td>{item.metadata?.resourceVersion}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Namespaced, listable resources from discovery: core v1 plus the preferred version of every group. */
async function discoverResources(store: PlaygroundStore, signal: AbortSignal): Promise<ListableResource[]> {
  const groupVersions = ['v1'];
  try {
    const groups = await getJson<GroupList>(store, '/apis', signal);
    for (const g of groups.groups ?? []) {
      const gv = g.preferredVersion?.groupVersion;
      if (gv) groupVersions.push(gv);
    }
  } catch {
    // core only
  }
  const lists = await Promise.all(
    groupVersions.map(async (gv) => {
      try {
        const path = gv === 'v1' ? '/api/v1' : `/apis/${gv}`;
        return listableResources(gv, await getJson<unknown>(store, path, signal));
      } catch {
        return [];
      }
    }),
  );
  return lists.flat().sort((a, b) => resourceLabel(a).localeCompare(resourceLabel(b)));
}
