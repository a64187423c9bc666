// The owner tree of the resource browser: workloads and their pods nested by ownerReferences (Deployment ->
// ReplicaSet -> Pod, CronJob -> Job -> Pod, StatefulSet / DaemonSet -> Pod, and any other chain among these
// kinds), kept live from one watch per kind. Each row says what matters for a rollout: replicas and ready
// counts for controllers, phase, readiness, restarts and the waiting reason (CrashLoopBackOff...) for pods.
// Also the playground's failure simulation (POST <base_url>/x-playground/fail|recover): a pod's container
// or a whole node fails until recovered; each action asks first.
import { useEffect, useMemo, useState } from 'react';
import { usePlaygroundStore, type ObjectRef, type PlaygroundStore } from '../../playground.js';
import { confirmDialog } from '../../confirm/dialog.js';
import { errorText, fetchJson } from '../common/ui.js';
import { readWatch, sleep } from '../common/watch.js';
import { collectionPath } from '../timeline/stream.js';

const SOURCE = 'browser';

type Obj = Record<string, any>;

/** The kinds the tree shows, owners first. */
export const TREE_KINDS: { groupVersion: string; resource: string; kind: string }[] = [
  { groupVersion: 'batch/v1', resource: 'cronjobs', kind: 'CronJob' },
  { groupVersion: 'apps/v1', resource: 'deployments', kind: 'Deployment' },
  { groupVersion: 'apps/v1', resource: 'statefulsets', kind: 'StatefulSet' },
  { groupVersion: 'apps/v1', resource: 'daemonsets', kind: 'DaemonSet' },
  { groupVersion: 'batch/v1', resource: 'jobs', kind: 'Job' },
  { groupVersion: 'apps/v1', resource: 'replicasets', kind: 'ReplicaSet' },
  { groupVersion: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController' },
  { groupVersion: 'v1', resource: 'pods', kind: 'Pod' },
];

export interface TreeNode {
  obj: Obj;
  kind: string;
  children: TreeNode[];
}

/** Objects nested under their owners (by uid); objects whose owners are not among them are roots. */
export function ownerForest(objects: Obj[]): TreeNode[] {
  const order = new Map(TREE_KINDS.map((k, i) => [k.kind, i]));
  const nodes = new Map<string, TreeNode>();
  for (const o of objects) if (o.metadata?.uid) nodes.set(o.metadata.uid, { obj: o, kind: o.kind, children: [] });
  const roots: TreeNode[] = [];
  for (const n of nodes.values()) {
    const refs = (n.obj.metadata?.ownerReferences ?? []) as Obj[];
    const owner = (refs.find((r) => r.controller) ?? refs[0]) as Obj | undefined;
    const parent = owner && nodes.get(owner.uid);
    if (parent && parent !== n) parent.children.push(n);
    else roots.push(n);
  }
  const sort = (list: TreeNode[]) => {
    list.sort((a, b) => (order.get(a.kind) ?? 99) - (order.get(b.kind) ?? 99) || String(a.obj.metadata?.namespace ?? '').localeCompare(String(b.obj.metadata?.namespace ?? '')) || String(a.obj.metadata?.name).localeCompare(String(b.obj.metadata?.name)));
    for (const n of list) sort(n.children);
  };
  sort(roots);
  return roots;
}

/** What a row says about its object: counts for controllers; phase, readiness and restarts for pods. */
export function summary(o: Obj): string {
  const s = (o.status ?? {}) as Obj;
  const spec = (o.spec ?? {}) as Obj;
  switch (o.kind) {
    case 'Deployment':
      return `ready ${s.readyReplicas ?? 0}/${spec.replicas ?? 1}, up-to-date ${s.updatedReplicas ?? 0}, available ${s.availableReplicas ?? 0}`;
    case 'ReplicaSet':
    case 'ReplicationController':
    case 'StatefulSet':
      return `replicas ${s.replicas ?? 0}/${spec.replicas ?? 1}, ready ${s.readyReplicas ?? 0}`;
    case 'DaemonSet':
      return `desired ${s.desiredNumberScheduled ?? 0}, ready ${s.numberReady ?? 0}`;
    case 'Job':
      return `succeeded ${s.succeeded ?? 0}/${spec.completions ?? 1}, active ${s.active ?? 0}${s.failed ? `, failed ${s.failed}` : ''}`;
    case 'CronJob':
      return `schedule ${spec.schedule ?? ''}, active ${((s.active ?? []) as unknown[]).length}`;
    case 'Pod':
      return podSummary(o);
  }
  return '';
}

/** As kubectl's STATUS column reads for the common cases, with ready containers and restarts. */
export function podSummary(o: Obj): string {
  const s = (o.status ?? {}) as Obj;
  const containers = (s.containerStatuses ?? []) as Obj[];
  const total = ((o.spec?.containers ?? []) as unknown[]).length;
  const ready = containers.filter((c) => c.ready).length;
  const restarts = containers.reduce((n, c) => n + Number(c.restartCount ?? 0), 0);
  let reason = String(s.reason ?? s.phase ?? 'Pending');
  for (const c of containers) {
    if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
    else if (c.state?.terminated?.reason && s.phase !== 'Succeeded') reason = c.state.terminated.reason;
  }
  if (o.metadata?.deletionTimestamp) reason = 'Terminating';
  return `${reason}, ready ${ready}/${total}, restarts ${restarts}${o.spec?.nodeName ? `, on ${o.spec.nodeName}` : ''}`;
}

/** The objects of the tree's kinds in a namespace (all when empty), listed then watched per kind. */
function useOwnedObjects(store: PlaygroundStore, namespace: string | undefined): { objects: Obj[]; error?: string } {
  const [objects, setObjects] = useState<Map<string, Obj>>(new Map());
  const [error, setError] = useState<string>();
  useEffect(() => {
    const abort = new AbortController();
    const all = new Map<string, Obj>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const publish = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setObjects(new Map(all)), 100);
    };
    setObjects(new Map());
    for (const k of TREE_KINDS) {
      (async () => {
        const path = collectionPath(k.groupVersion, k.resource, namespace || undefined);
        const keyOf = (o: Obj) => `${k.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
        while (!abort.signal.aborted) {
          let rv: string | undefined;
          try {
            const list = await fetchJson<{ metadata?: { resourceVersion?: string }; items?: Obj[] }>(store, path, SOURCE, { signal: abort.signal });
            for (const key of [...all.keys()]) if (key.startsWith(`${k.kind}/`)) all.delete(key);
            for (const o of list.items ?? []) all.set(keyOf(o), { ...o, kind: k.kind });
            rv = list.metadata?.resourceVersion;
            publish();
            setError(undefined);
          } catch (e) {
            if (abort.signal.aborted) return;
            // a kind this cluster does not serve (turned off) is left out quietly
            if (!String(errorText(e)).startsWith('404')) setError(errorText(e));
            await sleep(5000, abort.signal);
            continue;
          }
          const r = await readWatch(store, `${path}?watch=true&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(rv ?? '')}`, SOURCE, abort.signal, (ev) => {
            const e = ev as { type?: string; object?: Obj };
            if (!e.object || e.type === 'BOOKMARK' || e.type === 'ERROR') return;
            if (e.type === 'DELETED') all.delete(keyOf(e.object));
            else all.set(keyOf(e.object), { ...e.object, kind: k.kind });
            publish();
          }).catch(() => ({ outcome: 'http' as const, status: 0 }));
          if (r.outcome === 'aborted') return;
          await sleep(r.outcome === 'http' ? 3000 : 300, abort.signal);
        }
      })();
    }
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [store, namespace]);
  return { objects: useMemo(() => [...objects.values()], [objects]), error };
}

function refOf(o: Obj): ObjectRef {
  const k = TREE_KINDS.find((t) => t.kind === o.kind)!;
  return { groupVersion: k.groupVersion, resource: k.resource, kind: o.kind, namespace: o.metadata?.namespace, name: o.metadata?.name };
}

/**
 * The failure simulation: POST /x-playground/fail or /recover for a pod's container or a node, after asking.
 * Resolves to a status line for the panel.
 */
export async function simulateFailure(store: PlaygroundStore, action: 'fail' | 'recover', target: { pod?: { namespace: string; name: string; containers: string[] }; node?: string }): Promise<string | undefined> {
  let query: string;
  let title: string;
  let lines: string[];
  if (target.node) {
    query = `node=${encodeURIComponent(target.node)}`;
    title = action === 'fail' ? `Fail node ${target.node}?` : `Recover node ${target.node}?`;
    lines =
      action === 'fail'
        ? [`The kubelet of ${target.node} stops posting node status and renewing its Lease`, 'After the grace period (50 s) the node lifecycle controller marks it Unknown, taints it unreachable and marks its pods not Ready', 'Its pods are evicted when their toleration ends (300 s by default) and replaced elsewhere']
        : [`The kubelet of ${target.node} posts its status and renews its Lease again`, 'The node lifecycle controller lifts the unreachable taints; pods being deleted there are removed'];
  } else {
    const p = target.pod!;
    const container = p.containers[0];
    query = `pod=${encodeURIComponent(`${p.namespace}/${p.name}`)}${action === 'fail' && container ? `&container=${encodeURIComponent(container)}` : ''}`;
    title = action === 'fail' ? `Fail container ${container} of pod ${p.namespace}/${p.name}?` : `Recover pod ${p.namespace}/${p.name}?`;
    lines =
      action === 'fail'
        ? [`Container ${container} exits with an error (exit code 1) whenever it runs`, 'The kubelet restarts it with its back-off (10 s doubling to 5 min): CrashLoopBackOff', 'It keeps failing until recovered or the pod is deleted']
        : [`The pod's containers run normally again once restarted (after their current back-off)`];
  }
  const note = 'This is a simulation of the playground (POST <base_url>/x-playground/' + action + '); the real API server has no such request.';
  const ok = await confirmDialog({ title, lines, note, confirmLabel: action === 'fail' ? 'Fail (simulation)' : 'Recover (simulation)' });
  if (!ok) return undefined;
  try {
    const r = await fetchJson<{ message?: string }>(store, `/x-playground/${action}?${query}`, SOURCE, { method: 'POST' });
    return r.message ?? 'done';
  } catch (e) {
    return `Simulation refused: ${errorText(e)}`;
  }
}

/** Fail/recover buttons for the selected object when it is a Pod or a Node (the flat list's toolbar). */
export function FailureActions({ selected, onStatus }: { selected: ObjectRef | undefined; onStatus: (s: string) => void }) {
  const store = usePlaygroundStore();
  const isPod = selected?.resource === 'pods' && selected.groupVersion === 'v1';
  const isNode = selected?.resource === 'nodes' && selected.groupVersion === 'v1';
  if (!selected || (!isPod && !isNode)) return null;
  const act = async (action: 'fail' | 'recover') => {
    if (isNode) {
      const s = await simulateFailure(store, action, { node: selected.name });
      if (s) onStatus(s);
      return;
    }
    try {
      const pod = await fetchJson<Obj>(store, `${collectionPath('v1', 'pods', selected.namespace)}/${encodeURIComponent(selected.name)}`, SOURCE);
      const containers = ((pod.spec?.containers ?? []) as Obj[]).map((c) => String(c.name));
      const s = await simulateFailure(store, action, { pod: { namespace: String(selected.namespace), name: selected.name, containers } });
      if (s) onStatus(s);
    } catch (e) {
      onStatus(errorText(e));
    }
  };
  return (
    <>
      <button type="button" onClick={() => void act('fail')} data-testid={isNode ? 'fail-node' : 'fail-container'} title="Playground simulation">
        {isNode ? 'Fail node…' : 'Fail container…'}
      </button>
      <button type="button" onClick={() => void act('recover')} data-testid={isNode ? 'recover-node' : 'recover-pod'} title="Playground simulation">
        Recover…
      </button>
    </>
  );
}

const SMALL = { fontSize: '0.8em', padding: '0 0.35em' } as const;

function Row({ node, depth, selected, onSelect, onStatus }: { node: TreeNode; depth: number; selected?: ObjectRef; onSelect: (r: ObjectRef) => void; onStatus: (s: string) => void }) {
  const store = usePlaygroundStore();
  const o = node.obj;
  const ref = refOf(o);
  const sel = !!selected && selected.kind === ref.kind && selected.name === ref.name && (selected.namespace ?? '') === (ref.namespace ?? '');
  const act = async (action: 'fail' | 'recover', target: Parameters<typeof simulateFailure>[2]) => {
    const s = await simulateFailure(store, action, target);
    if (s) onStatus(s);
  };
  const containers = ((o.spec?.containers ?? []) as Obj[]).map((c) => String(c.name));
  const podTarget = { pod: { namespace: String(o.metadata?.namespace), name: String(o.metadata?.name), containers } };
  return (
    <>
      <li
        data-depth={depth + 1}
        data-selected={sel || undefined}
        data-testid={`owner-${o.kind}-${o.metadata?.name}`}
        data-kind={o.kind}
        style={{ paddingLeft: `${depth * 1.25}rem`, listStyle: 'none', display: 'flex', gap: '0.5rem', alignItems: 'baseline', flexWrap: 'wrap' }}
      >
        <button type="button" className="link" aria-current={sel || undefined} onClick={() => onSelect(ref)}>
          <span className="pp-muted">{o.kind}</span> {o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}
          {o.metadata?.name}
        </button>
        <span className="pp-muted" data-testid="owner-summary">
          {summary(o)}
        </span>
        {o.kind === 'Pod' && (
          <>
            <button type="button" onClick={() => void act('fail', podTarget)} data-testid="tree-fail-container" style={SMALL}>
              Fail container…
            </button>
            <button type="button" onClick={() => void act('recover', podTarget)} data-testid="tree-recover-pod" style={SMALL}>
              Recover…
            </button>
            {o.spec?.nodeName && (
              <button type="button" onClick={() => void act('fail', { node: String(o.spec.nodeName) })} data-testid="tree-fail-node" style={SMALL}>
                Fail node {o.spec.nodeName}…
              </button>
            )}
          </>
        )}
      </li>
      {node.children.map((c) => (
        <Row key={c.obj.metadata?.uid} node={c} depth={depth + 1} selected={selected} onSelect={onSelect} onStatus={onStatus} />
      ))}
    </>
  );
}

/** The tree for a namespace ('' for all), selecting into the playground's shared selection. */
export function OwnerTree({ namespace, selected, onSelect, onStatus }: { namespace: string | undefined; selected?: ObjectRef; onSelect: (r: ObjectRef) => void; onStatus: (s: string) => void }) {
  const store = usePlaygroundStore();
  const { objects, error } = useOwnedObjects(store, namespace);
  const forest = useMemo(() => ownerForest(objects), [objects]);
  return (
    <div className="pp-scroll" style={{ minHeight: 200 }} data-testid="owner-tree">
      {error && (
        <p role="alert" className="pp-error">
          {error}
        </p>
      )}
      <ul aria-label="Workloads by owner" style={{ margin: 0, padding: 0 }}>
        {forest.map((n) => (
          <Row key={n.obj.metadata?.uid} node={n} depth={0} selected={selected} onSelect={onSelect} onStatus={onStatus} />
        ))}
      </ul>
      {forest.length === 0 && <p className="pp-muted">No workloads or pods{namespace ? ` in ${namespace} namespace` : ''}.</p>}
    </div>
  );
}
