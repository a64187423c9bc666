// Helpers the workload controllers, the scheduler and the simulated nodes share: label selectors, owner
// references, pod readiness, resource quantities, and the event recorders of client-go: the legacy one
// (core v1 Events named <object>.<hex nanoseconds>, a repeat of the same event raising its count), which the
// controller manager's controllers and the kubelet use, and the events.k8s.io/v1 one (tools/events), which
// kube-scheduler uses.

import { rfc3339, rfc3339Micro } from '../env.js';
import type { KubeObject } from '../object.js';
import type { ApiClient } from './client.js';

type Obj = Record<string, any>;

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** metav1.LabelSelectorAsSelector: matches a label set (an empty selector matches everything). */
export function selectorMatches(sel: LabelSelector | undefined | null, labels: Record<string, string> | undefined): boolean {
  if (!sel) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of sel.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(l, e.key);
    const vals = e.values ?? [];
    if (e.operator === 'In' && !(has && vals.includes(l[e.key]))) return false;
    if (e.operator === 'NotIn' && has && vals.includes(l[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** A plain map selector (Service, ReplicationController). An empty one selects nothing here. */
export function mapSelectorMatches(sel: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!sel || Object.keys(sel).length === 0) return false;
  const l = labels ?? {};
  return Object.entries(sel).every(([k, v]) => l[k] === v);
}

export function controllerRef(o: KubeObject): Obj | undefined {
  return (o.metadata?.ownerReferences as Obj[] | undefined)?.find((r) => r.controller === true);
}

export function ownerRefTo(owner: KubeObject, apiVersion: string, kind: string): Obj {
  return { apiVersion, kind, name: owner.metadata!.name, uid: owner.metadata!.uid, controller: true, blockOwnerDeletion: true };
}

export function conditionOf(o: KubeObject, type: string): Obj | undefined {
  return ((o.status as Obj | undefined)?.conditions as Obj[] | undefined)?.find((c) => c.type === type);
}

export function podReady(pod: KubeObject): boolean {
  return conditionOf(pod, 'Ready')?.status === 'True';
}

/** Ready for at least minReadySeconds (podutil.IsPodAvailable). */
export function podAvailable(pod: KubeObject, minReadySeconds: number, now: number): boolean {
  const c = conditionOf(pod, 'Ready');
  if (c?.status !== 'True') return false;
  if (!minReadySeconds) return true;
  const t = Date.parse(String(c.lastTransitionTime ?? ''));
  return !Number.isNaN(t) && t + minReadySeconds * 1000 <= now;
}

/** Running or pending, not being deleted (controller.IsPodActive). */
export function podActive(pod: KubeObject): boolean {
  const phase = (pod.status as Obj | undefined)?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** A Quantity in base units (cores for cpu, bytes for memory). */
export function quantity(v: unknown): number {
  if (typeof v === 'number') return v;
  const m = /^([+-]?[0-9.]+)([a-zA-Z]*)$/.exec(String(v ?? '').trim());
  if (!m) return 0;
  const n = Number(m[1]);
  const f: Record<string, number> = {
    '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
    Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, Pi: 1024 ** 5, Ei: 1024 ** 6, n: 1e-9, u: 1e-6,
  };
  return n * (f[m[2]] ?? 1);
}

/** The pod's effective requests (containers summed, each init container as a maximum). */
export function podRequests(pod: KubeObject): { cpu: number; memory: number } {
  const spec = (pod.spec ?? {}) as Obj;
  const sum = { cpu: 0, memory: 0 };
  for (const c of (spec.containers ?? []) as Obj[]) {
    sum.cpu += quantity(c.resources?.requests?.cpu);
    sum.memory += quantity(c.resources?.requests?.memory);
  }
  for (const c of (spec.initContainers ?? []) as Obj[]) {
    sum.cpu = Math.max(sum.cpu, quantity(c.resources?.requests?.cpu));
    sum.memory = Math.max(sum.memory, quantity(c.resources?.requests?.memory));
  }
  return sum;
}

/** A short, deterministic hash (FNV-1a 32) as lower-case hex. */
export function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString: the alphabet of generated names (no vowels, no confusable characters). */
export function safeEncode(n: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const s = String(n);
  let out = '';
  for (const ch of s) out += alphabet[ch.charCodeAt(0) % alphabet.length];
  return out;
}

export interface EventSource {
  component: string;
  host?: string;
}

/** Records core v1 Events as client-go's recorder does; one event repeated raises count and lastTimestamp. */
export class EventRecorder {
  private readonly seen = new Map<string, { name: string; namespace: string; count: number }>();
  private readonly names = new EventNames();

  constructor(
    private readonly client: ApiClient,
    private readonly clock: { now(): number },
    private readonly source: EventSource,
  ) {}

  /** fieldPath: the part of the object the event is about (a container: "spec.containers{name}"). */
  async record(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string, fieldPath?: string): Promise<void> {
    const m = obj.metadata ?? {};
    const namespace = m.namespace || 'default';
    const now = this.clock.now();
    const ts = rfc3339(now);
    const key = [m.uid, fieldPath ?? '', type, reason, message].join('\u0000');
    const prior = this.seen.get(key);
    if (prior) {
      prior.count++;
      const r = await this.client.request('PATCH', `/api/v1/namespaces/${namespace}/events/${prior.name}`, { count: prior.count, lastTimestamp: ts }, 'application/strategic-merge-patch+json');
      if (r.status < 400) return;
      this.seen.delete(key);
    }
    const name = this.names.next(String(m.name), now);
    const ev = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: { apiVersion: obj.apiVersion, kind: obj.kind, name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, ...(fieldPath ? { fieldPath } : {}) },
      reason,
      message,
      source: this.source.host ? { component: this.source.component, host: this.source.host } : { component: this.source.component },
      firstTimestamp: ts,
      lastTimestamp: ts,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.source.component,
      reportingInstance: this.source.host ?? '',
    };
    const r = await postEvent(this.client, `/api/v1/namespaces/${namespace}/events`, ev, () => this.names.next(String(m.name), now));
    if (r.status < 400) this.seen.set(key, { name: r.name, namespace, count: 1 });
  }

}

/** Event names as client-go makes them: <object>.<hex nanoseconds>, rising within one recorder. */
class EventNames {
  private last = 0n;

  next(object: string, now: number): string {
    let nanos = BigInt(now) * 1_000_000n;
    if (nanos <= this.last) nanos = this.last + 1n;
    this.last = nanos;
    return `${object}.${nanos.toString(16)}`;
  }
}

/**
 * POSTs an event; on AlreadyExists tries the next name a few times. Real names carry the wall clock's
 * nanoseconds and practically never collide; on the injected clock's milliseconds two components (the
 * scheduler and a kubelet) can name an event about the same object alike in the same millisecond.
 */
async function postEvent(client: ApiClient, path: string, ev: { metadata: { name: string } }, next: () => string): Promise<{ status: number; name: string }> {
  for (let attempt = 0; ; attempt++) {
    const r = await client.request('POST', path, ev);
    if (r.status !== 409 || attempt >= 4) return { status: r.status, name: ev.metadata.name };
    ev.metadata.name = next();
  }
}

/**
 * Records events.k8s.io/v1 Events as client-go's tools/events recorder does (kube-scheduler's): named
 * <object>.<hex nanoseconds>, with eventTime, reportingController/reportingInstance and an action; the same
 * event again becomes a series (count and lastObservedTime patched onto the first).
 */
export class EventsV1Recorder {
  private readonly seen = new Map<string, { name: string; namespace: string; count: number }>();
  private readonly names = new EventNames();

  constructor(
    private readonly client: ApiClient,
    private readonly clock: { now(): number },
    private readonly reportingController: string,
    private readonly reportingInstance: string,
  ) {}

  async record(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, action: string, note: string): Promise<void> {
    const m = obj.metadata ?? {};
    const namespace = m.namespace || 'default';
    const now = this.clock.now();
    const key = [m.uid, type, reason, action, note].join('\u0000');
    const prior = this.seen.get(key);
    if (prior) {
      prior.count++;
      const series = { count: prior.count, lastObservedTime: rfc3339Micro(now) };
      const r = await this.client.request('PATCH', `/apis/events.k8s.io/v1/namespaces/${prior.namespace}/events/${prior.name}`, { series }, 'application/merge-patch+json');
      if (r.status < 400) return;
      this.seen.delete(key);
    }
    const name = this.names.next(String(m.name), now);
    const ev = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name, namespace },
      eventTime: rfc3339Micro(now),
      reportingController: this.reportingController,
      reportingInstance: this.reportingInstance,
      action,
      reason,
      regarding: { apiVersion: obj.apiVersion ?? 'v1', kind: obj.kind, name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion },
      note,
      type,
    };
    const r = await postEvent(this.client, `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, ev, () => this.names.next(String(m.name), now));
    if (r.status < 400) this.seen.set(key, { name: r.name, namespace, count: 1 });
  }

}

export function ns(o: KubeObject): string {
  return o.metadata?.namespace ?? '';
}

export function keyOf(o: KubeObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

export function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}
