// A cluster in a file: "Export cluster" writes one JSON document with everything a browser cluster is (its
// stored objects, the event history the storage still holds, its revision counters, its settings and the
// acting user kept for it) and "Import cluster" makes a new cluster of such a file. The file is untrusted
// input: parseClusterFile checks it within a budget (size, counts, nesting) and against the storage's own
// invariants (one history record per revision after the compacted one, every event and object at a revision
// the file covers), so that a bad file is refused with a clear message before anything is written.
// Pure: the database work is in src/adapters/idb/cluster-copy.ts.
import type { ClusterDump, HistoryRecordDump } from '../../adapters/idb/cluster-copy.js';
import { jsonDepth } from '../share/share.js';
import { parseActingUser, serializeActingUser, type ActingUser } from '../auth/identity.js';
import type { StoredObject } from '../../engine/storage/interface.js';
import { WORKLOAD_CONTROLLER_NAMES, type WorkloadControllerName } from '../../engine/controllers/names.js';

export const CLUSTER_FILE_KIND = 'KubePlaygroundCluster';
export const CLUSTER_FILE_VERSION = 1;
/** Largest file read (characters of JSON). */
export const MAX_CLUSTER_FILE_CHARS = 64 * 1024 * 1024;
/** Most stored objects and history records a file may hold. */
export const MAX_FILE_OBJECTS = 100_000;
export const MAX_FILE_HISTORY = 200_000;
/** Deepest nesting of the whole document. */
export const MAX_FILE_DEPTH = 128;
/** The storage key of the feature gates and runtime-config (src/engine/features/settings.ts). */
const SETTINGS_KEY = '/x-playground/settings//cluster';

export interface ClusterFileSettings {
  /** The simulated cluster around the API (workload controllers, scheduler, nodes). */
  simulated: boolean;
  /** Which of the simulated cluster's controllers run (absent: all of them). */
  controllers?: WorkloadControllerName[];
  /** Feature gates and runtime-config, as typed (also held by the stored settings record in `objects`). */
  featureGates: string;
  runtimeConfig: string;
}

export interface ClusterFile {
  kind: typeof CLUSTER_FILE_KIND;
  version: typeof CLUSTER_FILE_VERSION;
  cluster: string;
  exportedAt: string;
  settings: ClusterFileSettings;
  /** Absent: the cluster's administrator. */
  actingUser?: ActingUser;
  revision: number;
  compactedRevision: number;
  objects: StoredObject[];
  history: HistoryRecordDump[];
}

export const CLUSTER_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Why a cluster file cannot be imported; `message` is shown as is. */
export class ClusterFileError extends Error {}

function gatesOf(dump: ClusterDump): Pick<ClusterFileSettings, 'featureGates' | 'runtimeConfig'> {
  const o = dump.objects.find((s) => s.key === SETTINGS_KEY)?.object as Record<string, unknown> | undefined;
  return {
    featureGates: typeof o?.featureGates === 'string' ? o.featureGates : '',
    runtimeConfig: typeof o?.runtimeConfig === 'string' ? o.runtimeConfig : '',
  };
}

export function buildClusterFile(
  cluster: string, dump: ClusterDump, host: { simulated: boolean; controllers?: readonly WorkloadControllerName[] }, actingUser: ActingUser, now: Date,
): ClusterFile {
  const user = serializeActingUser(actingUser);
  return {
    kind: CLUSTER_FILE_KIND,
    version: CLUSTER_FILE_VERSION,
    cluster,
    exportedAt: now.toISOString(),
    settings: { simulated: host.simulated, ...(host.controllers ? { controllers: [...host.controllers] } : {}), ...gatesOf(dump) },
    ...(user ? { actingUser } : {}),
    revision: dump.revision,
    compactedRevision: dump.compactedRevision,
    objects: dump.objects,
    history: dump.history,
  };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isRev(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}

/** A Kubernetes object as stored: apiVersion, kind, metadata.name, and the resourceVersion of its revision. */
function checkObject(o: unknown, where: string, revision: number): void {
  if (!isObj(o) || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || !isObj(o.metadata) || typeof o.metadata.name !== 'string') {
    throw new ClusterFileError(`${where} is not an object with apiVersion, kind and metadata.name`);
  }
  const rv = o.metadata.resourceVersion;
  if (rv !== undefined && rv !== String(revision)) throw new ClusterFileError(`${where} has resourceVersion ${JSON.stringify(rv)}, not its revision ${revision}`);
}

/** The file's controller list: known names, each once (a file from a later playground may name more: refused, not guessed). */
function controllerList(v: unknown): WorkloadControllerName[] {
  const known: readonly string[] = WORKLOAD_CONTROLLER_NAMES;
  if (!Array.isArray(v) || v.some((n) => typeof n !== 'string')) throw new ClusterFileError('the file\'s settings.controllers is not a list of controller names');
  const seen = new Set<string>();
  for (const n of v as string[]) {
    if (!known.includes(n)) throw new ClusterFileError(`the file's settings.controllers names an unknown controller ${JSON.stringify(n)} (known: ${known.join(', ')})`);
    if (seen.has(n)) throw new ClusterFileError(`the file's settings.controllers names ${JSON.stringify(n)} twice`);
    seen.add(n);
  }
  return v as WorkloadControllerName[];
}

/**
 * The cluster file in `text`, checked; throws a ClusterFileError naming the first problem. Nothing is
 * written by this function, so a refused file changes nothing.
 */
export function parseClusterFile(text: string): ClusterFile {
  if (text.length > MAX_CLUSTER_FILE_CHARS) throw new ClusterFileError(`the file is larger than ${MAX_CLUSTER_FILE_CHARS / (1024 * 1024)} MiB`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new ClusterFileError('the file is not JSON (export a cluster with "Export cluster" to get one)');
  }
  if (!isObj(v) || v.kind !== CLUSTER_FILE_KIND) throw new ClusterFileError(`the file is not a cluster export (kind ${CLUSTER_FILE_KIND})`);
  if (v.version !== CLUSTER_FILE_VERSION) throw new ClusterFileError(`the file's version ${JSON.stringify(v.version)} is not supported (only ${CLUSTER_FILE_VERSION})`);
  if (jsonDepth(v, MAX_FILE_DEPTH) > MAX_FILE_DEPTH) throw new ClusterFileError(`the file is nested deeper than ${MAX_FILE_DEPTH} levels`);
  if (typeof v.cluster !== 'string' || !CLUSTER_NAME.test(v.cluster)) throw new ClusterFileError('the file names no valid cluster (a lowercase DNS label)');
  if (typeof v.exportedAt !== 'string') throw new ClusterFileError('the file has no exportedAt time');
  const s = v.settings;
  if (!isObj(s) || typeof s.simulated !== 'boolean' || typeof s.featureGates !== 'string' || typeof s.runtimeConfig !== 'string') {
    throw new ClusterFileError('the file\'s settings are not {simulated, featureGates, runtimeConfig}');
  }
  const controllers = s.controllers === undefined ? undefined : controllerList(s.controllers);
  let actingUser: ActingUser | undefined;
  if (v.actingUser !== undefined) {
    actingUser = parseActingUser(JSON.stringify(v.actingUser));
    if (actingUser.kind === 'admin') throw new ClusterFileError('the file\'s acting user is not a valid user or service account');
  }
  const { revision, compactedRevision } = v;
  if (!isRev(revision) || !isRev(compactedRevision) || compactedRevision > revision) {
    throw new ClusterFileError('the file\'s revision and compactedRevision are not whole numbers with compactedRevision <= revision');
  }
  if (!Array.isArray(v.objects) || !Array.isArray(v.history)) throw new ClusterFileError('the file has no objects and history lists');
  if (v.objects.length > MAX_FILE_OBJECTS) throw new ClusterFileError(`the file holds ${v.objects.length} objects (at most ${MAX_FILE_OBJECTS})`);
  if (v.history.length > MAX_FILE_HISTORY) throw new ClusterFileError(`the file holds ${v.history.length} history records (at most ${MAX_FILE_HISTORY})`);
  if (revision > 0 && v.objects.length === 0) throw new ClusterFileError('the file has a revision but no objects');
  const keys = new Set<string>();
  for (const [i, so] of (v.objects as unknown[]).entries()) {
    const where = `object ${i + 1}`;
    if (!isObj(so) || typeof so.key !== 'string' || so.key === '' || !isRev(so.revision) || so.revision < 1 || so.revision > revision) {
      throw new ClusterFileError(`${where} is not {key, object, revision} with a revision from 1 to ${revision}`);
    }
    if (keys.has(so.key)) throw new ClusterFileError(`${where}: key ${so.key} appears twice`);
    keys.add(so.key);
    checkObject(so.object, `${where} (${so.key})`, so.revision);
  }
  // the storage's invariant: exactly one record per revision compactedRevision+1 .. revision
  const expected = revision - compactedRevision;
  if (v.history.length !== expected) {
    throw new ClusterFileError(`the file's history has ${v.history.length} records; revisions ${compactedRevision + 1} to ${revision} need ${expected}`);
  }
  const history = [...(v.history as unknown[])];
  for (const [i, h] of history.entries()) {
    const want = compactedRevision + 1 + i;
    if (!isObj(h) || h.revision !== want || typeof h.time !== 'number' || !Number.isFinite(h.time) || !Array.isArray(h.events)) {
      throw new ClusterFileError(`history record ${i + 1} is not {revision: ${want}, time, events} (records must be in revision order, none missing)`);
    }
    for (const [j, e] of (h.events as unknown[]).entries()) {
      const where = `event ${j + 1} of revision ${want}`;
      if (!isObj(e) || e.revision !== want || (e.type !== 'ADDED' && e.type !== 'MODIFIED' && e.type !== 'DELETED') || typeof e.key !== 'string' || typeof e.time !== 'number') {
        throw new ClusterFileError(`${where} is not {revision, type, key, object, time}`);
      }
      checkObject(e.object, where, want);
      if (e.prevObject !== undefined && !isObj(e.prevObject)) throw new ClusterFileError(`${where} has a prevObject that is not an object`);
    }
  }
  return {
    kind: CLUSTER_FILE_KIND,
    version: CLUSTER_FILE_VERSION,
    cluster: v.cluster,
    exportedAt: v.exportedAt,
    settings: { simulated: s.simulated, ...(controllers ? { controllers } : {}), featureGates: s.featureGates, runtimeConfig: s.runtimeConfig },
    ...(actingUser ? { actingUser } : {}),
    revision,
    compactedRevision,
    objects: v.objects as StoredObject[],
    history: history as HistoryRecordDump[],
  };
}

/** What an import will create, one line each, for the confirm dialog. */
export function describeClusterFile(f: ClusterFile, target: string): string[] {
  const kinds = new Map<string, number>();
  for (const o of f.objects) if (o.key !== SETTINGS_KEY) kinds.set(String(o.object.kind), (kinds.get(String(o.object.kind)) ?? 0) + 1);
  const top = [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, n]) => `${n} ${k}`);
  const lines = [
    `A new cluster, ${target}, from "${f.cluster}" exported ${f.exportedAt}.`,
    `${f.objects.length} stored objects (${top.join(', ')}${kinds.size > 6 ? ', …' : ''}).`,
    `Event history: revisions ${f.compactedRevision + 1} to ${f.revision} (${f.history.length} records).`,
    `Simulated workloads: ${f.settings.simulated ? 'on' : 'off'}.`,
  ];
  if (f.settings.simulated && f.settings.controllers) {
    lines.push(`Controllers: ${f.settings.controllers.length ? f.settings.controllers.join(', ') : 'none'}.`);
  }
  if (f.settings.featureGates) lines.push(`Feature gates: ${f.settings.featureGates}.`);
  if (f.settings.runtimeConfig) lines.push(`Runtime config: ${f.settings.runtimeConfig}.`);
  if (f.actingUser && f.actingUser.kind !== 'admin') {
    lines.push(`Acting user: ${f.actingUser.kind === 'user' ? f.actingUser.name : `system:serviceaccount:${f.actingUser.namespace}:${f.actingUser.name}`}.`);
  }
  return lines;
}

/** The dump of a parsed file, for restoreClusterDatabase. */
export function dumpOf(f: ClusterFile): ClusterDump {
  return { revision: f.revision, compactedRevision: f.compactedRevision, objects: f.objects, history: f.history };
}
