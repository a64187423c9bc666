// Simulated nodes: one kubelet per node, each acting as system:node:<name> with kubelet's User-Agent (field
// manager "kubelet"). A kubelet registers its Node (labels, taints, capacity, the Ready condition), keeps a
// Lease in kube-node-lease renewed every 10 s, and runs the pods bound to it: Pending (ContainerCreating)
// -> Running with the real conditions, container statuses, pod IP and start time; pods of Jobs
// (restartPolicy Never/OnFailure) complete after a while. A deleted pod's containers stop (at once, as a
// container that honours SIGTERM does, bounded by the grace period) and the kubelet then deletes the pod
// with grace 0. Everything is derived from stored state and the injected clock, so a restarted engine
// carries on where it was.
//
// Injected faults (faults.ts, written by /x-playground/fail): a container told to fail exits with an error
// (exit code 1, reason Error) a moment after each start; the kubelet restarts it as the real one does, with
// the crash back-off (10 s doubling to 5 min, forgotten after 10 min without a restart: kept in memory, as
// the kubelet keeps it), showing CrashLoopBackOff while it waits and leaving the BackOff event. A container
// of a pod with restartPolicy Never is not restarted and the pod fails. A failed node's kubelet stops
// renewing its Lease and syncing its pods; the node lifecycle controller (node-lifecycle.ts) notices.
//
// Container events, as a v1.33 kubelet records them (core v1, source kubelet/<node>, involvedObject.fieldPath
// spec.containers{name} or spec.initContainers{name}): when the pod is admitted, Pulling for an image it pulls
// (imagePullPolicy Always, or IfNotPresent and not yet on this node) or Pulled "already present on machine";
// when the containers run, Pulled "Successfully pulled ..." for a pulled image, Created and Started; again on
// each restart of a crashing container (the recorder aggregates the repeats into one event's count); Killing
// when a running container is stopped for the pod's deletion. Which images a node holds is derived from the
// pods that ran there (and, in memory, what it pulled since it started).

import { rfc3339, rfc3339Micro } from '../env.js';
import type { KubeObject } from '../object.js';
import { kubeletIdentity, type ApiClient } from './client.js';
import type { ControllerSpec } from './manager.js';
import type { WorkQueue } from './queue.js';
import { EventRecorder, conditionOf, fnv32a, keyOf, splitKey } from './workload-util.js';
import type { Faults } from './faults.js';

type Obj = Record<string, any>;

export interface SimulatedNode {
  name: string;
  cpu?: string;
  memory?: string;
  pods?: number;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }[];
}

export interface NodeSimulationOptions {
  /** The nodes (default three: node-1..node-3, 4 CPUs, 8 GiB, 110 pods each). */
  nodes?: SimulatedNode[];
  /** How long a container takes from ContainerCreating to Running (default 1000 ms). */
  containerStartMs?: number;
  /** How long a container of a run-to-completion pod runs before it exits 0 (default 3000 ms). */
  completionMs?: number;
  /** How long a container takes to stop on SIGTERM, bounded by the grace period (default 500 ms). */
  containerStopMs?: number;
  /** How long a container told to fail runs before it exits with an error (default 1000 ms). */
  crashAfterMs?: number;
  /** The injected faults (containers told to fail, failed nodes). */
  faults?: Faults;
}

export function defaultNodes(count = 3): SimulatedNode[] {
  return Array.from({ length: count }, (_, i) => ({ name: `node-${i + 1}` }));
}

const LEASE_RENEW_MS = 10_000;
const LEASE_DURATION_SECONDS = 40;
const NODE_LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';

function nodeObject(n: SimulatedNode): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: n.name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': n.name,
        'kubernetes.io/os': 'linux',
        ...(n.labels ?? {}),
      },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: n.taints?.length ? { taints: n.taints.map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect })) } : {},
  };
}

function nodeIndex(nodes: SimulatedNode[], name: string): number {
  return nodes.findIndex((n) => n.name === name);
}

function hostIP(index: number): string {
  return `172.18.0.${index + 2}`;
}

function nodeStatus(n: SimulatedNode, index: number, now: number): Obj {
  const t = rfc3339(now);
  const capacity = { cpu: n.cpu ?? '4', 'ephemeral-storage': '102400Mi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: n.memory ?? '8Gi', pods: String(n.pods ?? 110) };
  const cond = (type: string, status: string, reason: string, message: string) => ({ type, status, lastHeartbeatTime: t, lastTransitionTime: t, reason, message });
  return {
    capacity,
    allocatable: { ...capacity },
    conditions: [
      cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ],
    addresses: [{ type: 'InternalIP', address: hostIP(index) }, { type: 'Hostname', address: n.name }],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: hex(`machine/${n.name}`, 32),
      systemUUID: hex(`uuid/${n.name}`, 32),
      bootID: hex(`boot/${n.name}`, 32),
      kernelVersion: '6.8.0-simulated',
      osImage: 'Simulated node (kubernetes API playground)',
      containerRuntimeVersion: 'containerd://1.7.27',
      kubeletVersion: 'v1.33.0',
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
  };
}

/** Deterministic hex of a given length from a seed. */
function hex(seed: string, len: number): string {
  let out = '';
  for (let i = 0; out.length < len; i++) out += fnv32a(`${seed}#${i}`).toString(16).padStart(8, '0');
  return out.slice(0, len);
}

const RUN_TO_COMPLETION = new Set(['Never', 'OnFailure']);

/** The image as the runtime names it (docker.io/library/nginx:latest for nginx). */
function fullImageName(image: string): string {
  return image.includes('/') ? (image.includes(':') ? image : `${image}:latest`) : `docker.io/library/${image.includes(':') ? image : `${image}:latest`}`;
}

/**
 * The size a Pulled event reports for an image. Nothing is pulled here, so these are fixed, plausible numbers
 * (about the compressed size of the official linux/amd64 images), not measured ones; any other image gets a
 * deterministic size between 5 and 105 MB from its name.
 */
const IMAGE_SIZES: Record<string, number> = {
  nginx: 72_223_946,
  busybox: 2_155_861,
  alpine: 3_642_081,
  redis: 45_133_442,
  httpd: 58_452_338,
  postgres: 158_671_218,
  ubuntu: 29_754_290,
  'registry.k8s.io/pause': 320_368,
};
export function imageSizeBytes(image: string): number {
  const repo = image.replace(/@.*$/, '').replace(/:[^:/]+$/, '').replace(/^docker\.io\/(library\/)?/, '');
  return IMAGE_SIZES[repo] ?? 5_000_000 + (fnv32a(`size/${repo}`) % 100_000_000);
}

/** The pull policy the API server defaulted (or, for an object without it, would default). */
function pullPolicy(c: Obj): string {
  if (typeof c.imagePullPolicy === 'string') return c.imagePullPolicy;
  const image = String(c.image ?? '').replace(/@.*$/, '');
  const tag = /:([^:/]+)$/.exec(image)?.[1];
  return !tag || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** A whole number of milliseconds as Go's time.Duration prints it (0s, 500ms, 1s, 1.234s, 1m2.5s). */
export function goDurationMs(ms: number): string {
  ms = Math.max(0, Math.trunc(ms));
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const rest = ms % 60_000;
  const sec = `${Math.floor(rest / 1000)}${rest % 1000 ? `.${String(rest % 1000).padStart(3, '0').replace(/0+$/, '')}` : ''}s`;
  if (h) return `${h}h${m}m${sec}`;
  if (m) return `${m}m${sec}`;
  return sec;
}

/** The pod's init containers and containers, in the order the kubelet starts them, with their field paths. */
function podContainers(pod: KubeObject): { c: Obj; fieldPath: string }[] {
  const spec = (pod.spec ?? {}) as Obj;
  return [
    ...((spec.initContainers ?? []) as Obj[]).map((c) => ({ c, fieldPath: `spec.initContainers{${c.name}}` })),
    ...((spec.containers ?? []) as Obj[]).map((c) => ({ c, fieldPath: `spec.containers{${c.name}}` })),
  ];
}

/** The pod's containers as the kubelet reports them in a given state. */
function containerStatuses(pod: KubeObject, state: 'creating' | 'running' | 'completed', at: string): Obj[] {
  const spec = (pod.spec ?? {}) as Obj;
  return ((spec.containers ?? []) as Obj[]).map((c) => {
    const fullImage = fullImageName(String(c.image ?? ''));
    const base: Obj = { name: c.name, image: fullImage, imageID: '', ready: false, restartCount: 0, started: false };
    if (state === 'creating') return { ...base, lastState: {}, state: { waiting: { reason: 'ContainerCreating' } } };
    const id = `containerd://${hex(`${pod.metadata?.uid}/${c.name}`, 64)}`;
    const imageID = `${fullImage.replace(/:[^:/]+$/, '')}@sha256:${hex(`image/${fullImage}`, 64)}`;
    if (state === 'running') return { ...base, containerID: id, imageID, lastState: {}, ready: true, started: true, state: { running: { startedAt: at } } };
    return { ...base, containerID: id, imageID, lastState: {}, state: { terminated: { containerID: id, exitCode: 0, finishedAt: at, reason: 'Completed', startedAt: at } } };
  });
}

function condition(type: string, status: string, at: string, extra: Obj = {}): Obj {
  return { type, status, lastProbeTime: null, lastTransitionTime: at, ...extra };
}

/** The kubelet's container restart back-off (flowcontrol.Backoff: 10 s doubling to 5 min, reset after 10 min). */
const BACKOFF_INITIAL_MS = 10_000;
const BACKOFF_MAX_MS = 300_000;

/** A duration as Go's time.Duration prints it (10s, 1m20s, 5m0s). */
export function goDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${s % 60}s`;
  return `${Math.floor(m / 60)}h${m % 60}m${s % 60}s`;
}

export function nodeSimulation(options: NodeSimulationOptions = {}): ControllerSpec {
  const nodes = options.nodes ?? defaultNodes();
  const startMs = options.containerStartMs ?? 1000;
  const completionMs = options.completionMs ?? 3000;
  const stopMs = options.containerStopMs ?? 500;
  const crashAfterMs = options.crashAfterMs ?? 1000;
  const faults = options.faults;
  const names = new Set(nodes.map((n) => n.name));
  return {
    identity: kubeletIdentity(nodes[0]?.name ?? 'node'),
    start(ctx) {
      const clients = new Map<string, ApiClient>(nodes.map((n) => [n.name, ctx.clientAs(kubeletIdentity(n.name))]));
      const timers = new Set<unknown>();
      const later = (fn: () => void, ms: number) => {
        const h = ctx.env.timers.setTimeout(() => {
          timers.delete(h);
          fn();
        }, ms);
        timers.add(h);
      };

      // registration and heartbeats
      const register = async (n: SimulatedNode): Promise<void> => {
        const client = clients.get(n.name)!;
        const path = `/api/v1/nodes/${n.name}`;
        let node = await client.request('GET', path);
        if (node.status === 404) {
          node = await client.request('POST', '/api/v1/nodes', nodeObject(n));
          if (node.status >= 400 && node.status !== 409) throw new Error(`registering node ${n.name}: ${node.status}`);
        }
        const ready = conditionOf(node.body as KubeObject, 'Ready');
        if (!ready || (ready.status !== 'True' && !faults?.nodeFailed(n.name))) {
          const r = await client.request('PATCH', `${path}/status`, { status: nodeStatus(n, nodeIndex(nodes, n.name), ctx.env.clock.now()) }, 'application/strategic-merge-patch+json');
          if (r.status >= 400) throw new Error(`node status of ${n.name}: ${r.status}`);
        }
        const current = (await client.request('GET', path)).body as KubeObject;
        await untaintReady(current);
        if (!faults?.nodeFailed(n.name)) await renewLease(n, current);
      };
      // the node lifecycle controller (service account node-controller) lifts the not-ready taint the
      // API server put on the new node once its kubelet reports Ready
      const nodeController = ctx.clientAs({ serviceAccount: 'node-controller' });
      const untaintReady = async (node: KubeObject): Promise<void> => {
        const taints = ((node.spec as Obj | undefined)?.taints ?? []) as Obj[];
        const rest = taints.filter((t) => t.key !== 'node.kubernetes.io/not-ready');
        if (rest.length === taints.length) return;
        const next = { ...node, apiVersion: 'v1', kind: 'Node', spec: { ...(node.spec as Obj), taints: rest } };
        if (!rest.length) delete (next.spec as Obj).taints;
        const r = await nodeController.request('PUT', `/api/v1/nodes/${node.metadata!.name}`, next);
        if (r.status >= 400) throw new Error(`untainting ${node.metadata!.name}: ${r.status}`);
      };
      const renewLease = async (n: SimulatedNode, node?: KubeObject): Promise<void> => {
        const client = clients.get(n.name)!;
        const renewTime = rfc3339Micro(ctx.env.clock.now());
        const r = await client.request('GET', `${NODE_LEASES}/${n.name}`);
        if (r.status === 404) {
          const lease: Obj = {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name: n.name, namespace: 'kube-node-lease' },
            spec: { holderIdentity: n.name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime },
          };
          if (node?.metadata?.uid) lease.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: n.name, uid: node.metadata.uid }];
          await client.request('POST', NODE_LEASES, lease);
        } else if (r.status < 400) {
          const lease = r.body as Obj;
          // a restarted engine keeps the heartbeat's rhythm: a lease renewed less than 10 s ago is left alone
          const last = Date.parse(String(lease.spec?.renewTime ?? ''));
          if (lease.spec?.holderIdentity === n.name && !Number.isNaN(last) && ctx.env.clock.now() - last < LEASE_RENEW_MS) return;
          lease.spec = { ...(lease.spec ?? {}), holderIdentity: n.name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime };
          await client.request('PUT', `${NODE_LEASES}/${n.name}`, lease);
        }
      };
      const heartbeat = (n: SimulatedNode) =>
        later(() => {
          // a failed node's kubelet is silent
          void (faults?.nodeFailed(n.name) ? Promise.resolve() : renewLease(n)).catch(() => undefined).finally(() => {
            if (!stopped) heartbeat(n);
          });
        }, LEASE_RENEW_MS);
      let stopped = false;
      const registered = Promise.all(
        nodes.map(async (n) => {
          for (let attempt = 0; attempt < 5 && !stopped; attempt++) {
            try {
              await register(n);
              break;
            } catch {
              await new Promise<void>((r) => later(r, 1000));
            }
          }
          if (!stopped) heartbeat(n);
        }),
      );

      // pods bound to these nodes
      const pods = ctx.informer('/api/v1/pods', {
        add: (p) => enqueue(p),
        update: (_, p) => enqueue(p),
        delete: (p) => {
          killed.delete(String(p.metadata?.uid));
          pulls.delete(String(p.metadata?.uid));
        },
      });
      const enqueue = (p: KubeObject) => {
        const node = (p.spec as Obj | undefined)?.nodeName;
        if (typeof node === 'string' && names.has(node)) queue.add(keyOf(p));
      };
      const queue: WorkQueue<string> = ctx.queue<string>(async (key): Promise<void> => {
        await registered;
        const pod = pods.store.get(key);
        if (!pod) return;
        const node = String((pod.spec as Obj).nodeName);
        // a failed node's kubelet does nothing; it syncs its pods again when the node recovers
        if (faults?.nodeFailed(node)) return;
        const client = clients.get(node)!;
        const now = ctx.env.clock.now();
        const [namespace, name] = splitKey(key);
        const path = `/api/v1/namespaces/${namespace}/pods/${name}`;
        const meta = pod.metadata!;
        const status = (pod.status ?? {}) as Obj;
        if (meta.deletionTimestamp) {
          if (!killed.has(String(meta.uid))) {
            // SIGTERM to the running containers, each announced by a Killing event
            killed.add(String(meta.uid));
            for (const cs of (status.containerStatuses ?? []) as Obj[]) {
              if (cs.state?.running) await recorder(node).record(pod, 'Normal', 'Killing', `Stopping container ${cs.name}`, `spec.containers{${cs.name}}`);
            }
          }
          // the containers got SIGTERM when the deletion began (deletionTimestamp minus the grace period)
          const grace = Number(meta.deletionGracePeriodSeconds ?? 0);
          const began = Date.parse(meta.deletionTimestamp) - grace * 1000;
          const due = began + Math.min(grace * 1000, stopMs);
          if (now < due) return queue.addAfter(key, due - now);
          const r = await client.request('DELETE', path, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: meta.uid } });
          if (r.status >= 400 && r.status !== 404 && r.status !== 409) throw new Error(`deleting pod ${key}: ${r.status}`);
          return;
        }
        const phase = status.phase;
        if (phase === 'Succeeded' || phase === 'Failed') return;
        const containers = (status.containerStatuses ?? []) as Obj[];
        const at = rfc3339(now);
        if (!status.startTime) {
          // admitted: ContainerCreating
          const next: Obj = {
            ...status,
            phase: 'Pending',
            hostIP: hostIP(nodeIndex(nodes, node)),
            hostIPs: [{ ip: hostIP(nodeIndex(nodes, node)) }],
            startTime: at,
            conditions: [
              condition('PodReadyToStartContainers', 'False', at),
              condition('Initialized', 'True', at),
              condition('Ready', 'False', at, { reason: 'ContainersNotReady', message: `containers with unready status: [${((pod.spec as Obj).containers as Obj[]).map((c) => c.name).join(' ')}]` }),
              condition('ContainersReady', 'False', at, { reason: 'ContainersNotReady', message: `containers with unready status: [${((pod.spec as Obj).containers as Obj[]).map((c) => c.name).join(' ')}]` }),
              conditionOf(pod, 'PodScheduled') ?? condition('PodScheduled', 'True', at),
            ],
            containerStatuses: containerStatuses(pod, 'creating', at),
          };
          if (await putStatus(client, path, pod, next)) {
            // the images: pulled (Pulling now, Pulled when the containers start) or already on this node
            const decided = new Map<string, boolean>();
            pulls.set(String(meta.uid), decided);
            for (const { c, fieldPath } of podContainers(pod)) {
              const pull = mustPull(node, c, pod);
              decided.set(fieldPath, pull);
              await pullEvent(node, pod, c, fieldPath, pull);
            }
          }
          return queue.addAfter(key, startMs);
        }
        const started = Date.parse(status.startTime);
        if (containers.some((c) => c.state?.waiting?.reason === 'ContainerCreating')) {
          if (now < started + startMs) return queue.addAfter(key, started + startMs - now);
          const ip = podIP(node, pod);
          const next: Obj = {
            ...status,
            phase: 'Running',
            podIP: ip,
            podIPs: [{ ip }],
            conditions: [
              condition('PodReadyToStartContainers', 'True', at),
              condition('Initialized', 'True', String(conditionOf(pod, 'Initialized')?.lastTransitionTime ?? at)),
              condition('Ready', 'True', at),
              condition('ContainersReady', 'True', at),
              conditionOf(pod, 'PodScheduled') ?? condition('PodScheduled', 'True', at),
            ],
            containerStatuses: containerStatuses(pod, 'running', at),
          };
          if (await putStatus(client, path, pod, next)) {
            const decided = pulls.get(String(meta.uid));
            pulls.delete(String(meta.uid));
            for (const { c, fieldPath } of podContainers(pod)) {
              // a kubelet restarted in between decides again from what the node holds
              const pulled = decided?.get(fieldPath) ?? mustPull(node, c, pod);
              await startEvents(node, pod, c, fieldPath, pulled ? now - started : undefined);
            }
          }
          if (RUN_TO_COMPLETION.has(String((pod.spec as Obj).restartPolicy))) queue.addAfter(key, completionMs);
          if (faultOf(pod)) queue.addAfter(key, crashAfterMs);
          return;
        }
        if (phase === 'Running' && (faultOf(pod) || containers.some((c) => c.state?.waiting?.reason === 'CrashLoopBackOff' || c.state?.terminated))) {
          return crashLoop(client, path, pod, node, now);
        }
        if (phase === 'Running' && conditionOf(pod, 'Ready')?.status !== 'True' && containers.length && containers.every((c) => c.ready && c.state?.running)) {
          // marked not ready while this kubelet was away (node lifecycle controller): it reports its pod again
          const conditions = ((status.conditions ?? []) as Obj[]).map((c) => (c.type === 'Ready' || c.type === 'ContainersReady' ? condition(c.type, 'True', at) : c));
          await putStatus(client, path, pod, { ...status, conditions });
          return;
        }
        if (RUN_TO_COMPLETION.has(String((pod.spec as Obj).restartPolicy)) && phase === 'Running') {
          const runningSince = Date.parse(String(conditionOf(pod, 'Ready')?.lastTransitionTime ?? status.startTime));
          if (now < runningSince + completionMs) return queue.addAfter(key, runningSince + completionMs - now);
          const next: Obj = {
            ...status,
            phase: 'Succeeded',
            conditions: [
              condition('PodReadyToStartContainers', 'False', at),
              condition('Initialized', 'True', String(conditionOf(pod, 'Initialized')?.lastTransitionTime ?? at), { reason: 'PodCompleted' }),
              condition('Ready', 'False', at, { reason: 'PodCompleted' }),
              condition('ContainersReady', 'False', at, { reason: 'PodCompleted' }),
              conditionOf(pod, 'PodScheduled') ?? condition('PodScheduled', 'True', at),
            ],
            containerStatuses: containerStatuses(pod, 'completed', at),
          };
          await putStatus(client, path, pod, next);
        }
      });

      /** Whether any container of the pod is told to fail. */
      const faultOf = (pod: KubeObject): boolean => {
        const m = pod.metadata!;
        return ((pod.spec as Obj).containers as Obj[]).some((c) => !!faults?.container(String(m.namespace), String(m.name), String(c.name), m.uid));
      };

      // the crash back-off per container (pod uid/container), in memory as the kubelet keeps it
      const backoff = new Map<string, { backoffMs: number; lastUpdate: number }>();
      // container events: the images each node pulled since this kubelet started, the pull decided at
      // admission (pod uid -> field path -> pulled), the pods whose containers were told to stop
      const nodeImages = new Map<string, Set<string>>();
      const pulls = new Map<string, Map<string, boolean>>();
      const killed = new Set<string>();
      /** On the node: pulled by this kubelet, or the image of a container that ran in another pod there. */
      const imagePresent = (node: string, image: string, pod: KubeObject): boolean => {
        if (nodeImages.get(node)?.has(image)) return true;
        const full = fullImageName(image);
        for (const p of pods.store.values()) {
          if ((p.spec as Obj | undefined)?.nodeName !== node || p.metadata?.uid === pod.metadata?.uid) continue;
          if ((((p.status as Obj | undefined)?.containerStatuses ?? []) as Obj[]).some((cs) => cs.imageID && cs.image === full)) return true;
        }
        return false;
      };
      // Never: not modelled as ErrImageNeverPull; the image counts as present (as if preloaded on the node)
      const mustPull = (node: string, c: Obj, pod: KubeObject): boolean => {
        const policy = pullPolicy(c);
        if (policy === 'Always') return true;
        if (policy === 'Never') return false;
        return !imagePresent(node, String(c.image ?? ''), pod);
      };
      const pullEvent = async (node: string, pod: KubeObject, c: Obj, fieldPath: string, pull: boolean): Promise<void> => {
        const image = String(c.image ?? '');
        if (pull) await recorder(node).record(pod, 'Normal', 'Pulling', `Pulling image "${image}"`, fieldPath);
        else await recorder(node).record(pod, 'Normal', 'Pulled', `Container image "${image}" already present on machine`, fieldPath);
      };
      /** Pulled (when the image was pulled, in pulledMs), Created, Started. */
      const startEvents = async (node: string, pod: KubeObject, c: Obj, fieldPath: string, pulledMs: number | undefined): Promise<void> => {
        const image = String(c.image ?? '');
        const r = recorder(node);
        if (pulledMs !== undefined) {
          const d = goDurationMs(pulledMs);
          await r.record(pod, 'Normal', 'Pulled', `Successfully pulled image "${image}" in ${d} (${d} including waiting). Image size: ${imageSizeBytes(image)} bytes.`, fieldPath);
          let held = nodeImages.get(node);
          if (!held) nodeImages.set(node, (held = new Set()));
          held.add(image);
        }
        await r.record(pod, 'Normal', 'Created', `Created container: ${c.name}`, fieldPath);
        await r.record(pod, 'Normal', 'Started', `Started container ${c.name}`, fieldPath);
      };
      const recorders = new Map<string, EventRecorder>();
      const recorder = (node: string) => {
        let r = recorders.get(node);
        if (!r) recorders.set(node, (r = new EventRecorder(clients.get(node)!, ctx.env.clock, { component: 'kubelet', host: node })));
        return r;
      };

      /**
       * A running pod with a container told to fail or crash-looping: exits, restarts after the back-off
       * (kuberuntime's doBackOff), CrashLoopBackOff while waiting; the pod's readiness follows.
       */
      const crashLoop = async (client: ApiClient, path: string, pod: KubeObject, node: string, now: number): Promise<void> => {
        const key = keyOf(pod);
        const m = pod.metadata!;
        const spec = pod.spec as Obj;
        const status = pod.status as Obj;
        const at = rfc3339(now);
        const never = spec.restartPolicy === 'Never';
        const commits: (() => void)[] = [];
        const events: [string, string][] = [];
        const restarted: string[] = [];
        let wake = Infinity;
        let changed = false;
        const statuses = ((status.containerStatuses ?? []) as Obj[]).map((cs) => {
          const fault = faults?.container(String(m.namespace), String(m.name), String(cs.name), m.uid);
          const id = `${m.uid}/${cs.name}`;
          let terminated: Obj | undefined;
          let finishedAt: number;
          if (cs.state?.running) {
            if (!fault) return cs;
            const exitAt = Math.max(Date.parse(cs.state.running.startedAt) + crashAfterMs, fault.since);
            if (now < exitAt) {
              wake = Math.min(wake, exitAt);
              return cs;
            }
            finishedAt = exitAt;
            terminated = { containerID: cs.containerID, exitCode: 1, finishedAt: rfc3339(exitAt), reason: 'Error', startedAt: cs.state.running.startedAt };
            if (never) {
              changed = true;
              return { ...cs, ready: false, started: false, state: { terminated } };
            }
          } else if (cs.state?.waiting?.reason === 'CrashLoopBackOff' && cs.lastState?.terminated) {
            terminated = cs.lastState.terminated as Obj;
            finishedAt = Date.parse(String(terminated.finishedAt));
          } else {
            return cs;
          }
          const entry = backoff.get(id);
          const inBackOff = !!entry && now - entry.lastUpdate <= 2 * BACKOFF_MAX_MS && now - finishedAt < entry.backoffMs;
          if (inBackOff) {
            wake = Math.min(wake, finishedAt + entry!.backoffMs);
            const message = `back-off ${goDuration(entry!.backoffMs)} restarting failed container=${cs.name} pod=${m.name}_${m.namespace}(${m.uid})`;
            if (cs.state?.waiting?.message === message) return cs;
            changed = true;
            events.push([String(cs.name), `Back-off restarting failed container ${cs.name} in pod ${m.name}_${m.namespace}(${m.uid})`]);
            return { ...cs, lastState: { terminated }, ready: false, started: false, state: { waiting: { reason: 'CrashLoopBackOff', message } } };
          }
          // not (or no longer) backing off: start it again, and back off longer next time
          const next = !entry || finishedAt - entry.lastUpdate > 2 * BACKOFF_MAX_MS ? BACKOFF_INITIAL_MS : Math.min(entry.backoffMs * 2, BACKOFF_MAX_MS);
          commits.push(() => backoff.set(id, { backoffMs: next, lastUpdate: now }));
          if (fault) wake = Math.min(wake, now + crashAfterMs);
          changed = true;
          restarted.push(String(cs.name));
          const restartCount = Number(cs.restartCount ?? 0) + 1;
          const containerID = `containerd://${hex(`${m.uid}/${cs.name}/${restartCount}`, 64)}`;
          return { ...cs, containerID, lastState: { terminated }, ready: true, restartCount, started: true, state: { running: { startedAt: at } } };
        });
        if (changed) {
          const unready = statuses.filter((cs) => !cs.ready).map((cs) => cs.name);
          const allTerminated = never && statuses.every((cs) => cs.state?.terminated);
          const failed = allTerminated && statuses.some((cs) => cs.state.terminated.exitCode !== 0);
          const readyNow = unready.length === 0;
          const cond = (type: string): Obj => {
            const prev = conditionOf(pod, type);
            if (allTerminated) return condition(type, 'False', at, { reason: failed ? 'PodFailed' : 'PodCompleted' });
            if (prev && (prev.status === 'True') === readyNow) return prev;
            return readyNow ? condition(type, 'True', at) : condition(type, 'False', at, { reason: 'ContainersNotReady', message: `containers with unready status: [${unready.join(' ')}]` });
          };
          const conditions = ((status.conditions ?? []) as Obj[]).map((c) => (c.type === 'Ready' || c.type === 'ContainersReady' ? cond(c.type) : c));
          const next: Obj = { ...status, conditions, containerStatuses: statuses };
          if (allTerminated) next.phase = failed ? 'Failed' : 'Succeeded';
          const ok = await putStatus(client, path, pod, next);
          if (!ok) return;
          for (const c of commits) c();
          for (const [container, message] of events) await recorder(node).record(pod, 'Warning', 'BackOff', message, `spec.containers{${container}}`);
          // a restarted container: its image again (Always pulls it anew, at once here), Created, Started
          for (const name of restarted) {
            const c = ((spec.containers ?? []) as Obj[]).find((x) => x.name === name);
            if (!c) continue;
            const pull = pullPolicy(c) === 'Always';
            await pullEvent(node, pod, c, `spec.containers{${name}}`, pull);
            await startEvents(node, pod, c, `spec.containers{${name}}`, pull ? 0 : undefined);
          }
        }
        if (wake !== Infinity) queue.addAfter(key, Math.max(0, wake - now));
      };

      // a failed node's kubelet comes back: it posts its status and renews its lease, then syncs its pods
      const recoverNode = async (name: string): Promise<void> => {
        const n = nodes.find((x) => x.name === name);
        if (!n) return;
        await registered;
        const client = clients.get(name)!;
        const path = `/api/v1/nodes/${name}`;
        const cur = await client.request('GET', path);
        if (cur.status >= 400) return;
        const now = ctx.env.clock.now();
        const fresh = nodeStatus(n, nodeIndex(nodes, name), now);
        const prev = (((cur.body as Obj).status?.conditions ?? []) as Obj[]);
        const conditions = (fresh.conditions as Obj[]).map((c) => {
          const old = prev.find((p) => p.type === c.type);
          return old && old.status === c.status ? { ...c, lastTransitionTime: old.lastTransitionTime } : c;
        });
        await client.request('PATCH', `${path}/status`, { status: { conditions } }, 'application/strategic-merge-patch+json');
        await renewLease(n);
        for (const p of pods.store.values()) if ((p.spec as Obj | undefined)?.nodeName === name) queue.add(keyOf(p));
      };
      const unsubscribe = faults?.subscribe((change) => {
        if (change.pod && pods.store.get(change.pod)) enqueue(pods.store.get(change.pod)!);
        if (change.node && names.has(change.node) && !faults.nodeFailed(change.node)) void recoverNode(change.node).catch(() => undefined);
      });

      /** The pod's IP: the lowest free address of its node's pod range (10.244.<n>.0/24), from stored state. */
      const podIP = (node: string, pod: KubeObject): string => {
        const prefix = `10.244.${nodeIndex(nodes, node) + 1}.`;
        const used = new Set<string>();
        for (const p of pods.store.values()) {
          if (p.metadata?.uid === pod.metadata?.uid) continue;
          const ip = (p.status as Obj | undefined)?.podIP;
          if (typeof ip === 'string' && ip.startsWith(prefix)) used.add(ip);
        }
        for (let i = 2; i < 255; i++) if (!used.has(prefix + i)) return prefix + i;
        return `${prefix}254`;
      };

      const putStatus = async (client: ApiClient, path: string, pod: KubeObject, status: Obj): Promise<boolean> => {
        const r = await client.request('PUT', `${path}/status`, { ...pod, apiVersion: 'v1', kind: 'Pod', status });
        // a newer version is on its way through the informer, or the pod is gone
        if (r.status === 409 || r.status === 404) return false;
        if (r.status >= 400) throw new Error(`pod status ${path}: ${r.status} ${JSON.stringify(r.body)}`);
        return true;
      };

      return {
        name: 'simulated-nodes',
        stop() {
          stopped = true;
          unsubscribe?.();
          for (const t of timers) ctx.env.timers.clearTimeout(t);
          timers.clear();
        },
      };
    },
  };
}
