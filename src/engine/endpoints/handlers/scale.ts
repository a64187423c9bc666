// The scale subresource (autoscaling/v1 Scale) of deployments, replicasets, statefulsets and
// replicationcontrollers [K8S registry/apps/deployment/storage ScaleREST].

import { rfc3339 } from '../../env.js';
import { badRequest, fieldErr, invalid } from '../../errors.js';
import { clone, isPlainObject, type KubeObject } from '../../object.js';
import { decodeBody } from '../deps.js';
import { applyJsonPatch } from '../deps.js';
import { applyMergePatch } from '../deps.js';
import { updateManagedFields, objectTypeFor } from '../deps.js';
import { groupVersion } from '../../registry/types.js';
import { bodyMediaType } from '../negotiation/media.js';
import { respond } from '../responders.js';
import { parseWriteOptions, readBody, type Scope } from '../scope.js';
import { plain } from './create.js';

function getPath(obj: KubeObject, path: string): unknown {
  let cur: unknown = obj;
  for (const p of path.replace(/^\./, '').split('.')) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

function setPath(obj: KubeObject, path: string, value: unknown): void {
  const parts = path.replace(/^\./, '').split('.');
  let cur = obj as Record<string, unknown>;
  for (const p of parts.slice(0, -1)) {
    if (!isPlainObject(cur[p])) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

/** metav1.LabelSelector (or a plain map, for ReplicationController) as a selector string. */
export function selectorString(sel: unknown): string {
  if (!isPlainObject(sel)) return '';
  const reqs: [string, string][] = [];
  const ml = isPlainObject(sel.matchLabels) ? (sel.matchLabels as Record<string, string>) : sel.matchExpressions === undefined && sel.matchLabels === undefined ? (sel as Record<string, string>) : {};
  for (const [k, v] of Object.entries(ml)) reqs.push([k, `${k}=${v}`]);
  if (Array.isArray(sel.matchExpressions)) {
    for (const e of sel.matchExpressions as { key: string; operator: string; values?: string[] }[]) {
      const vals = [...(e.values ?? [])].sort().join(',');
      if (e.operator === 'In') reqs.push([e.key, `${e.key} in (${vals})`]);
      else if (e.operator === 'NotIn') reqs.push([e.key, `${e.key} notin (${vals})`]);
      else if (e.operator === 'Exists') reqs.push([e.key, e.key]);
      else if (e.operator === 'DoesNotExist') reqs.push([e.key, `!${e.key}`]);
    }
  }
  return reqs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((r) => r[1]).join(',');
}

function toScale(scope: Scope, obj: KubeObject): KubeObject {
  const sc = scope.def.subresources.scale!;
  const m = obj.metadata ?? {};
  const status: Record<string, unknown> = { replicas: Number(getPath(obj, sc.statusReplicasPath) ?? 0) };
  const sel = sc.labelSelectorPath ? getPath(obj, sc.labelSelectorPath) : undefined;
  const selStr = typeof sel === 'string' ? sel : selectorString(sel);
  if (selStr) status.selector = selStr;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: Number(getPath(obj, sc.specReplicasPath) ?? 0) },
    status,
  };
}

export async function handleScale(scope: Scope): Promise<Response> {
  const { def, core, info } = scope;
  const sc = def.subresources.scale!;
  if (info.verb === 'get') {
    const obj = core.store.get(def, info.namespace, info.name);
    return respond(200, toScale(scope, obj), { negotiated: plain(scope), pretty: scope.pretty });
  }
  const opts = parseWriteOptions(scope, info.verb === 'patch' ? 'PatchOptions' : 'UpdateOptions');
  const ct = bodyMediaType(scope.request.headers.get('Content-Type'));
  const bytes = await readBody(scope);
  const { value } = decodeBody(bytes, ct.format === 'yaml' ? 'yaml' : 'json');
  let resultScale: KubeObject | undefined;
  const out = await core.store.update(def, info.namespace, info.name, 'scale', (current) => {
    if (!current) throw badRequest('not found');
    const scale = toScale(scope, current);
    let desired: unknown;
    if (info.verb === 'patch') {
      if (ct.patch === 'json-patch') desired = applyJsonPatch(clone(scale), value);
      else desired = applyMergePatch(clone(scale), value);
    } else desired = value;
    if (!isPlainObject(desired)) throw badRequest('the body must be a Scale object');
    const d = desired as KubeObject;
    if (d.kind !== undefined && d.kind !== 'Scale') throw badRequest(`${String(d.kind)} in version "v1" cannot be handled as a Scale`);
    const rv = d.metadata?.resourceVersion;
    const replicas = isPlainObject(d.spec) ? (d.spec as Record<string, unknown>).replicas : undefined;
    if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas))) {
      throw badRequest(`Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`);
    }
    const r = (replicas as number | undefined) ?? 0;
    if (r < 0) {
      throw invalid({ group: 'autoscaling', kind: 'Scale' }, info.name, [fieldErr.invalid('spec.replicas', r, 'must be greater than or equal to 0')]);
    }
    const next = clone(current);
    setPath(next, sc.specReplicasPath, r);
    if (rv) next.metadata = { ...next.metadata, resourceVersion: rv };
    resultScale = next;
    return next;
  }, {
    dryRun: opts.dryRun,
    finalize: (obj, old) => {
      const type = objectTypeFor(def.schema, def.definitions, { customResource: (def as { custom?: boolean }).custom === true });
      return updateManagedFields(type, old, obj, { manager: opts.fieldManager, apiVersion: groupVersion(def), subresource: 'scale', time: rfc3339(core.env.clock.now()) });
    },
  });
  void resultScale;
  return respond(200, toScale(scope, out.object), { negotiated: plain(scope), pretty: scope.pretty });
}
