// The scale subresource (autoscaling/v1 Scale) of deployments, replicasets, statefulsets and
// replicationcontrollers [K8S registry/apps/deployment/storage ScaleREST].

import { rfc3339 } from '../../env.js';
import { StatusError, badRequest, conflict, fieldErr, invalid } from '../../errors.js';
import { clone, isPlainObject, type KubeObject } from '../../object.js';
import { decodeBody } from '../../codec/decode.js';
import { applyJsonPatch, decodeJsonPatchBody } from '../../patch/json-patch.js';
import { applyMergePatch, decodeMergePatchBody } from '../../patch/merge-patch.js';
import { applyStrategicMergePatch, decodeStrategicPatchBody } from '../../patch/strategic.js';
import { updateScaleManagedFields } from '../../merge/index.js';
import { groupVersion } from '../../registry/types.js';
import { bodyMediaType } from '../negotiation/media.js';
import { respond } from '../responders.js';
import { readBody, type Scope } from '../scope.js';
import { writeOptions } from '../pipeline.js';
import { plain } from './create.js';
import { PATCH_TYPES } from './patch.js';

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
  const isPatch = info.verb === 'patch';
  const ct = bodyMediaType(scope.request.headers.get('Content-Type'));
  if (isPatch) {
    const allowed = PATCH_TYPES;
    if (!ct.patch || !allowed.includes(ct.full)) {
      throw new StatusError({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: `the body of the request was in an unknown format - accepted media types include: ${allowed.join(', ')}`,
        reason: 'UnsupportedMediaType', code: 415,
      });
    }
    if (ct.patch === 'apply-patch') {
      throw new StatusError({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
        reason: 'UnsupportedMediaType', code: 415,
      });
    }
  }
  const opts = writeOptions(scope, isPatch ? 'PatchOptions' : 'UpdateOptions', ct.patch);
  const bytes = await readBody(scope);
  let body: unknown;
  if (!isPatch) body = decodeBody(bytes, ct.format === 'yaml' ? 'yaml' : 'json').value;
  else if (ct.patch === 'json-patch') body = decodeJsonPatchBody(bytes, opts.fieldValidation).patch;
  else if (ct.patch === 'merge-patch') body = decodeMergePatchBody(bytes, opts.fieldValidation).value;
  else body = decodeStrategicPatchBody(bytes, opts.fieldValidation).value;
  const replicasPath = sc.specReplicasPath.replace(/^\./, '').split('.');
  const out = await core.store.update(def, info.namespace, info.name, 'scale', (current) => {
    const scale = toScale(scope, current!);
    let desired: unknown;
    if (!isPatch) desired = body;
    else if (ct.patch === 'json-patch') desired = applyJsonPatch(scale, body);
    else if (ct.patch === 'merge-patch') desired = applyMergePatch(scale, body);
    else desired = applyStrategicMergePatch(scale, body, { type: 'object' }, {});
    if (!isPlainObject(desired)) throw badRequest('the body must be a Scale object');
    const d = desired as KubeObject;
    if (d.kind !== undefined && d.kind !== 'Scale') {
      throw badRequest(`${String(d.kind)} in version "v1" cannot be handled as a Scale: no kind "${String(d.kind)}" is registered for version "autoscaling/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"`);
    }
    const replicas = isPlainObject(d.spec) ? (d.spec as Record<string, unknown>).replicas : undefined;
    if (replicas !== undefined && replicas !== null && (typeof replicas !== 'number' || !Number.isInteger(replicas))) {
      const msg = `json: cannot unmarshal ${typeof replicas === 'number' ? 'number ' + String(replicas) : typeof replicas === 'boolean' ? 'bool' : typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`;
      if (isPatch) throw badRequest(msg);
      throw badRequest(`Scale in version "v1" cannot be handled as a Scale: ${msg}`);
    }
    const r = (replicas as number | undefined | null) ?? 0;
    if (r < 0) {
      throw invalid({ group: 'autoscaling', kind: 'Scale' }, info.name, [fieldErr.invalid('spec.replicas', r, 'must be greater than or equal to 0')]);
    }
    const uid = d.metadata?.uid;
    if (uid && uid !== current!.metadata?.uid) {
      throw conflict({ group: def.group, resource: `${def.plural}/scale` }, info.name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current!.metadata?.uid ?? ''}`);
    }
    const next = clone(current!);
    setPath(next, sc.specReplicasPath, r);
    const rv = d.metadata?.resourceVersion;
    next.metadata = { ...next.metadata, resourceVersion: rv ?? '' };
    return next;
  }, {
    dryRun: opts.dryRun,
    finalize: (obj, old) => updateScaleManagedFields(old ?? obj, obj, {
      manager: opts.fieldManager,
      apiVersion: groupVersion(def),
      subresource: 'scale',
      time: rfc3339(core.env.clock.now()),
      replicasPath,
    }),
  });
  return respond(200, toScale(scope, out.object), { negotiated: plain(scope), pretty: scope.pretty });
}
