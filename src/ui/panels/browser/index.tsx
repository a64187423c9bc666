// Resource browser: API groups and resources from discovery (re-read when a CRD changes), namespaces, and the
// objects of one resource as the server's Table (kubectl-like columns). Selecting a row shares the object
// with the other panels; "Open" loads its YAML into the manifest editor; templates start new manifests.
import { dump } from 'js-yaml';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { usePlaygroundStore, usePlayground, type ObjectRef } from '../../playground.js';
import { ageText, errorText, fetchJson, useInterval, usePanelTheme } from '../common/ui.js';
import { readWatch, sleep } from '../common/watch.js';
import { withoutManagedFields } from '../managed-fields/fields.js';
import { collectionPath } from '../timeline/stream.js';
import { discover, TABLE_ACCEPT, toTableView, type ApiGroupView, type ApiResource, type TableView } from './discovery.js';
import { templates } from './templates.js';
import { confirmDialog } from '../../confirm/dialog.js';
import { FailureActions, OwnerTree } from './owner-tree.js';
import { ObjectList } from './object-list.js';
import { useRovingFocus } from '../../a11y/roving.js';

const SOURCE = 'browser';
const ALL = '';

function resourceKey(r: ApiResource): string {
  return `${r.groupVersion}/${r.name}`;
}

/** Object as YAML for the editor; managedFields dropped unless asked for. */
export function objectYaml(obj: unknown, keepManagedFields = false): string {
  return dump(keepManagedFields ? obj : withoutManagedFields(obj), { noRefs: true, lineWidth: -1 });
}

function cellText(v: unknown, type: string): string {
  if (v === null || v === undefined) return '<none>';
  if (type === 'date' && typeof v === 'string') return ageText(v);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function ResourceBrowser() {
  const theme = usePanelTheme();
  const store = usePlaygroundStore();
  const selected = usePlayground((s) => s.selected);
  const [groups, setGroups] = useState<ApiGroupView[]>([]);
  const [discoveryError, setDiscoveryError] = useState<string>();
  const [filter, setFilter] = useState('');
  const [resKey, setResKey] = useState('v1/configmaps');
  const [namespaces, setNamespaces] = useState<string[]>(['default']);
  const [namespace, setNamespace] = useState('default');
  const [table, setTable] = useState<TableView>();
  const [tableError, setTableError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const [wide, setWide] = useState(false);
  const [keepManaged, setKeepManaged] = useState(false);
  const [treeView, setTreeView] = useState(false);
  const [template, setTemplate] = useState('deployment');
  const [status, setStatus] = useState<string>();
  const [discoveryTick, setDiscoveryTick] = useState(0);
  const [listTick, setListTick] = useState(0);
  const ids = { filter: useId(), ns: useId(), tpl: useId() };
  // the resource list is one tab stop (Up/Down move in it)
  const resourceList = useRef<HTMLUListElement>(null);
  useRovingFocus(resourceList, 'vertical');

  const resources = useMemo(() => groups.flatMap((g) => g.resources), [groups]);
  const resource = resources.find((r) => resourceKey(r) === resKey);

  // Discovery, and again whenever the set of CRDs changes (a watch on CRDs) or every minute.
  useEffect(() => {
    let live = true;
    discover(store, SOURCE).then(
      (g) => {
        if (!live) return;
        setGroups(g);
        setDiscoveryError(undefined);
      },
      (e: unknown) => live && setDiscoveryError(errorText(e)),
    );
    fetchJson<{ items?: { metadata?: { name?: string } }[] }>(store, '/api/v1/namespaces', SOURCE).then(
      (l) => live && setNamespaces((l.items ?? []).map((i) => i.metadata?.name ?? '').filter(Boolean)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [store, discoveryTick]);
  useInterval(() => setDiscoveryTick((t) => t + 1), 60_000);

  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setDiscoveryTick((t) => t + 1), 300);
    };
    (async () => {
      const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
      let rv: string | undefined;
      while (!abort.signal.aborted) {
        if (rv === undefined) {
          try {
            rv = (await fetchJson<{ metadata?: { resourceVersion?: string } }>(store, crds, SOURCE)).metadata?.resourceVersion;
          } catch {
            await sleep(30_000, abort.signal);
            continue;
          }
        }
        // Every event after the list's resourceVersion adds, changes or removes served resources.
        const r = await readWatch(store, `${crds}?watch=true&resourceVersion=${rv ?? ''}`, SOURCE, abort.signal, (ev) => {
          const e = ev as { type?: string; object?: { metadata?: { resourceVersion?: string } } };
          if (e.type === 'ERROR') {
            rv = undefined;
            return;
          }
          rv = e.object?.metadata?.resourceVersion ?? rv;
          changed();
        }).catch(() => ({ outcome: 'http' as const, status: 0 }));
        if (r.outcome === 'aborted') return;
        if (r.outcome === 'http') rv = undefined;
        await sleep(r.outcome === 'http' ? 10_000 : 500, abort.signal);
      }
    })();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [store]);

  // The objects of the chosen resource, listed again after changes seen on a watch of that collection.
  const ns = resource?.namespaced ? namespace : undefined;
  const gv = resource?.groupVersion;
  const plural = resource?.name;
  const watchable = !!resource?.verbs.includes('watch');
  const latestRv = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!gv || !plural) return;
    let live = true;
    setLoading(true);
    fetchJson<unknown>(store, collectionPath(gv, plural, ns || undefined), SOURCE, { headers: { Accept: TABLE_ACCEPT } }).then(
      (body) => {
        if (!live) return;
        const view = toTableView(body as Parameters<typeof toTableView>[0], wide);
        latestRv.current = view.resourceVersion;
        setTable(view);
        setTableError(undefined);
        setLoading(false);
      },
      (e: unknown) => {
        if (!live) return;
        setTable(undefined);
        setTableError(errorText(e));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [store, gv, plural, ns, wide, listTick]);

  useEffect(() => {
    if (!gv || !plural || !watchable) return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const relist = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setListTick((t) => t + 1), 250);
    };
    latestRv.current = undefined;
    (async () => {
      while (!abort.signal.aborted) {
        const from = latestRv.current;
        if (!from) {
          await sleep(300, abort.signal);
          continue;
        }
        const path = `${collectionPath(gv, plural, ns || undefined)}?watch=true&resourceVersion=${encodeURIComponent(from)}`;
        const r = await readWatch(store, path, SOURCE, abort.signal, relist).catch(() => ({ outcome: 'http' as const, status: 0 }));
        if (r.outcome === 'aborted') return;
        // The stream ended (a timeout, a restarted worker) or failed: list again, then watch from there.
        latestRv.current = undefined;
        relist();
        await sleep(r.outcome === 'http' ? 5000 : 500, abort.signal);
      }
    })();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [store, gv, plural, ns, watchable]);

  const refresh = useCallback(() => {
    setDiscoveryTick((t) => t + 1);
    setListTick((t) => t + 1);
  }, []);

  const refOf = (row: TableView['rows'][number]): ObjectRef | undefined =>
    resource && { groupVersion: resource.groupVersion, resource: resource.name, kind: resource.kind, namespace: row.namespace ?? ns, name: row.name };

  const isSelected = (row: TableView['rows'][number]) =>
    !!selected && !!resource && selected.resource === resource.name && selected.groupVersion === resource.groupVersion && selected.name === row.name && (selected.namespace ?? '') === (row.namespace ?? ns ?? '');

  const open = async (ref: ObjectRef | undefined) => {
    if (!ref) return;
    try {
      const obj = await fetchJson<unknown>(store, `${collectionPath(ref.groupVersion, ref.resource, ref.namespace)}/${encodeURIComponent(ref.name)}`, SOURCE);
      store.openInEditor(objectYaml(obj, keepManaged));
      setStatus(`Opened ${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name} in the editor`);
    } catch (e) {
      setStatus(`Could not open: ${errorText(e)}`);
    }
  };

  const objectPath = (ref: ObjectRef) => `${collectionPath(ref.groupVersion, ref.resource, ref.namespace)}/${encodeURIComponent(ref.name)}`;
  const refText = (ref: ObjectRef) => `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;

  // SIMULATION (playground only, POST <base_url>/x-playground/corrupt): the object's stored bytes become
  // undecodable, as after a lost encryption key or a damaged etcd value; then a GET shows the real error.
  const corrupt = async (ref: ObjectRef | undefined) => {
    if (!ref) return;
    const ok = await confirmDialog({
      title: `Simulate corruption of ${refText(ref)}?`,
      lines: [
        `${refText(ref)}: its stored value is replaced by bytes the API server cannot decode`,
        'Reads, lists of its collection and normal deletes then fail, as with a corrupt object in etcd',
      ],
      note: 'This is a simulation the real API server does not offer. Only a delete with ignoreStoreReadErrorWithClusterBreakingPotential (feature gate AllowUnsafeMalformedObjectDeletion) removes the object afterwards.',
      confirmLabel: 'Corrupt (simulation)',
    });
    if (!ok) return;
    try {
      await fetchJson<unknown>(store, `/x-playground/corrupt?path=${encodeURIComponent(objectPath(ref))}`, SOURCE, { method: 'POST' });
      await fetchJson<unknown>(store, objectPath(ref), SOURCE);
      setStatus(`Simulation: ${refText(ref)} was corrupted, but it still reads`);
    } catch (e) {
      setStatus(`Simulation: ${refText(ref)} is corrupt. Reading it now fails: ${errorText(e)}`);
    }
    refresh();
  };

  // The forced delete of a corrupt object: DELETE with ignoreStoreReadErrorWithClusterBreakingPotential=true.
  const forceDelete = async (ref: ObjectRef | undefined) => {
    if (!ref) return;
    const ok = await confirmDialog({
      title: `Force delete ${refText(ref)}?`,
      lines: [`${refText(ref)}: removed from storage without reading it`, 'Finalizers and preconditions are skipped; controllers are not told what it held'],
      note: 'Sent as DELETE with ignoreStoreReadErrorWithClusterBreakingPotential=true. The server refuses it for an object it can read, and ignores the option unless the feature gate AllowUnsafeMalformedObjectDeletion is on.',
      confirmLabel: 'Force delete',
    });
    if (!ok) return;
    try {
      await fetchJson<unknown>(store, `${objectPath(ref)}?ignoreStoreReadErrorWithClusterBreakingPotential=true`, SOURCE, { method: 'DELETE' });
      setStatus(`Force-deleted ${refText(ref)}`);
      store.select(undefined);
    } catch (e) {
      setStatus(`Force delete of ${refText(ref)} failed: ${errorText(e)}`);
    }
    refresh();
  };

  const q = filter.trim().toLowerCase();
  const shownGroups = groups
    .map((g) => ({
      ...g,
      resources: g.resources.filter((r) => !q || r.name.includes(q) || r.kind.toLowerCase().includes(q) || (r.shortNames ?? []).some((s) => s === q) || g.name.includes(q)),
    }))
    .filter((g) => g.resources.length > 0);
  const tpls = templates(namespace || 'default');

  return (
    <section className="pp" aria-label="Resource browser" data-testid="resource-browser" data-theme={theme}>
      <div className="pp-toolbar">
        <h3>Resources</h3>
        <button type="button" onClick={refresh}>
          Refresh
        </button>
        <label htmlFor={ids.tpl}>New from template</label>
        <select id={ids.tpl} value={template} onChange={(e) => setTemplate(e.target.value)}>
          {tpls.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => store.openInEditor(tpls.find((t) => t.id === template)!.yaml)}>
          Open template
        </button>
        {status && (
          <span role="status" className="pp-muted">
            {status}
          </span>
        )}
      </div>
      {discoveryError && (
        <p role="alert" className="pp-error">
          Discovery failed: {discoveryError}
        </p>
      )}
      <div className="pp-split">
        <nav className="pp-tree pp-scroll" aria-label="API groups and resources">
          <label htmlFor={ids.filter} className="pp-muted" style={{ display: 'block', padding: '2px 4px' }}>
            Filter
          </label>
          <input id={ids.filter} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="kind, name, group" style={{ margin: '0 4px 4px', width: 'calc(100% - 8px)' }} />
          <ul ref={resourceList}>
            {shownGroups.map((g) => (
              <li key={g.groupVersion}>
                <strong title={g.groupVersion}>{g.name || 'core'}</strong> <span className="pp-muted">{g.groupVersion}</span>
                <ul>
                  {g.resources.map((r) => (
                    <li key={r.name}>
                      <button type="button" className="link" aria-current={resourceKey(r) === resKey} onClick={() => setResKey(resourceKey(r))} data-testid={`resource-${r.group || 'core'}-${r.name}`}>
                        {r.name} <span className="pp-muted">{r.kind}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </nav>
        <div style={{ minWidth: 0, display: 'flex', flexDirection: 'column', gap: '0.4rem' }}>
          <div className="pp-toolbar">
            <strong>{resource ? `${resource.kind} (${resource.groupVersion})` : resKey}</strong>
            {(resource?.namespaced || treeView) && (
              <>
                <label htmlFor={ids.ns}>Namespace</label>
                <select id={ids.ns} value={namespace} onChange={(e) => setNamespace(e.target.value)}>
                  <option value={ALL}>All namespaces</option>
                  {namespaces.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </>
            )}
            <label>
              <input type="checkbox" checked={wide} onChange={(e) => setWide(e.target.checked)} /> Wide
            </label>
            <label title="Workloads and pods nested by ownerReferences, updated live">
              <input type="checkbox" checked={treeView} onChange={(e) => setTreeView(e.target.checked)} data-testid="owner-tree-toggle" /> Owner tree
            </label>
            <label>
              <input type="checkbox" checked={keepManaged} onChange={(e) => setKeepManaged(e.target.checked)} /> Open with managedFields
            </label>
            <button type="button" disabled={!selected} onClick={() => open(selected)}>
              Open in editor
            </button>
            <button type="button" disabled={!selected} onClick={() => void corrupt(selected)} data-testid="simulate-corruption" title="Playground simulation: make the selected object's stored value undecodable">
              Simulate corruption…
            </button>
            <button type="button" disabled={!selected} onClick={() => void forceDelete(selected)} data-testid="force-delete" title="DELETE with ignoreStoreReadErrorWithClusterBreakingPotential=true">
              Force delete…
            </button>
            <FailureActions selected={selected} onStatus={setStatus} />
            {loading && <span className="pp-muted">loading…</span>}
            {table?.resourceVersion && <span className="pp-muted">resourceVersion {table.resourceVersion}</span>}
          </div>
          {tableError && (
            <p role="alert" className="pp-error">
              {tableError}
            </p>
          )}
          {treeView && <OwnerTree namespace={namespace} selected={selected} onSelect={(r) => store.select(r)} onStatus={setStatus} />}
          <div hidden={treeView} style={{ display: treeView ? 'none' : 'flex', flexDirection: 'column', gap: '0.4rem', minWidth: 0 }}>
            <ObjectList
              table={table}
              namespaceColumn={!!resource?.namespaced && namespace === ALL}
              emptyText={`No resources found${ns ? ` in ${ns} namespace` : ''}.`}
              cellText={cellText}
              isSelected={isSelected}
              onSelect={(row) => store.select(refOf(row))}
              onOpen={(row) => void open(refOf(row))}
            />
          </div>
          <p className="pp-muted" style={{ margin: 0 }}>
            Click a row to select it (the other panels follow the selection); double-click or Enter opens it in the editor. Up and Down move between rows.
          </p>
        </div>
      </div>
    </section>
  );
}
