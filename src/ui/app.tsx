// The minimal shell: base_url (copyable), cluster name, namespaces, and the objects of one kind in one
// namespace, read over the HTTP API only.
import { useCallback, useEffect, useId, useState } from 'react';
import type { ApiConnection } from './api.js';
import { apiGetJson } from './api.js';
import {
  listPath,
  listableResources,
  resourceId,
  resourceLabel,
  shortAge,
  type ListableResource,
} from './settings.js';

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

type Loadable<T> = { state: 'loading' } | { state: 'ok'; value: T } | { state: 'error'; message: string };

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function App({ connection }: { connection: Promise<ApiConnection> }) {
  const [conn, setConn] = useState<Loadable<ApiConnection>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    connection.then(
      (value) => live && setConn({ state: 'ok', value }),
      (err: unknown) => live && setConn({ state: 'error', message: errorText(err) }),
    );
    return () => {
      live = false;
    };
  }, [connection]);

  return (
    <>
      <header className="top">
        <h1>Kubernetes API playground</h1>
      </header>
      <main>
        {conn.state === 'loading' && <p role="status">Starting the API server…</p>}
        {conn.state === 'error' && (
          <p role="alert" className="error">
            The API server could not be started: {conn.message}
          </p>
        )}
        {conn.state === 'ok' && <Cluster conn={conn.value} />}
      </main>
    </>
  );
}

function Cluster({ conn }: { conn: ApiConnection }) {
  const [namespaces, setNamespaces] = useState<Loadable<string[]>>({ state: 'loading' });
  const [namespace, setNamespace] = useState('default');
  const [resources, setResources] = useState<ListableResource[]>([CONFIGMAPS]);
  const [selected, setSelected] = useState(resourceId(CONFIGMAPS));
  const [refreshes, setRefreshes] = useState(0);
  const refresh = useCallback(() => setRefreshes((n) => n + 1), []);

  useEffect(() => {
    const abort = new AbortController();
    apiGetJson<ListView>('/api/v1/namespaces', abort.signal).then(
      (list) => {
        const names = (list.items ?? []).map((i) => i.metadata?.name ?? '').filter(Boolean);
        setNamespaces({ state: 'ok', value: names });
      },
      (err: unknown) => !abort.signal.aborted && setNamespaces({ state: 'error', message: errorText(err) }),
    );
    return () => abort.abort();
  }, [refreshes]);

  useEffect(() => {
    const abort = new AbortController();
    void discoverResources(abort.signal).then((found) => {
      if (!abort.signal.aborted && found.length > 0) setResources(found);
    });
    return () => abort.abort();
  }, []);

  const resource = resources.find((r) => resourceId(r) === selected) ?? CONFIGMAPS;

  return (
    <>
      <ConnectionPanel conn={conn} />
      <div className="columns">
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
        <ObjectsPanel
          namespace={namespace}
          resource={resource}
          resources={resources}
          onSelect={setSelected}
          refreshes={refreshes}
          onRefresh={refresh}
        />
      </div>
    </>
  );
}

function ConnectionPanel({ conn }: { conn: ApiConnection }) {
  const inputId = useId();
  const [copied, setCopied] = useState('');
  const copy = useCallback(async () => {
    try {
      await navigator.clipboard.writeText(conn.baseUrl);
      setCopied('Copied base_url to the clipboard.');
    } catch {
      const input = document.getElementById(inputId) as HTMLInputElement | null;
      input?.select();
      setCopied('Copying is not allowed here: the address is selected, press Ctrl+C (Cmd+C) to copy it.');
    }
  }, [conn.baseUrl, inputId]);

  return (
    <section aria-labelledby="connection-heading" className="connection">
      <h2 id="connection-heading">Cluster</h2>
      <dl>
        <dt>Cluster name</dt>
        <dd data-testid="cluster-name">{conn.cluster}</dd>
        <dt>
          <label htmlFor={inputId}>base_url</label>
        </dt>
        <dd className="base-url">
          <input id={inputId} readOnly value={conn.baseUrl} size={Math.max(24, conn.baseUrl.length + 2)} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" onClick={() => void copy()}>
            Copy base_url
          </button>
          <span role="status" className="hint">
            {copied}
          </span>
        </dd>
        <dt>Served by</dt>
        <dd data-testid="engine-mode">
          {conn.mode === 'service-worker'
            ? 'service worker'
            : `in-page engine (${conn.fallbackReason ?? 'fallback'})`}
        </dd>
      </dl>
      {conn.mode === 'service-worker' ? (
        <p className="hint">
          Try it from the devtools console: <code>await (await fetch('{conn.baseUrl}/api/v1/namespaces')).json()</code>
        </p>
      ) : (
        <p className="hint">
          This page sends its requests to the engine running in the page; from the devtools console use{' '}
          <code>await (await playground.apiFetch('/api/v1/namespaces')).json()</code>
        </p>
      )}
      {conn.warnings.map((w) => (
        <p key={w} role="alert" className="error">
          {w}
        </p>
      ))}
    </section>
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
  const selectId = useId();
  const [list, setList] = useState<Loadable<ListView>>({ state: 'loading' });
  const path = listPath(resource, namespace);

  useEffect(() => {
    const abort = new AbortController();
    setList({ state: 'loading' });
    apiGetJson<ListView>(path, abort.signal).then(
      (value) => setList({ state: 'ok', value }),
      (err: unknown) => !abort.signal.aborted && setList({ state: 'error', message: errorText(err) }),
    );
    return () => abort.abort();
  }, [path, refreshes]);

  const now = Date.now();
  const caption = `${resource.kind} objects in namespace ${namespace}`;

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
        <code className="hint">GET {path}</code>
      </div>
      {list.state === 'loading' && <p role="status">Loading…</p>}
      {list.state === 'error' && (
        <p role="alert" className="error">
          {list.message}
        </p>
      )}
      {list.state === 'ok' && (
        <table>
          <caption>{caption}</caption>
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
                  <td>{item.metadata?.name}</td>
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
async function discoverResources(signal: AbortSignal): Promise<ListableResource[]> {
  const groupVersions = ['v1'];
  try {
    const groups = await apiGetJson<GroupList>('/apis', signal);
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
        return listableResources(gv, await apiGetJson<unknown>(path, signal));
      } catch {
        return [];
      }
    }),
  );
  return lists.flat().sort((a, b) => resourceLabel(a).localeCompare(resourceLabel(b)));
}
