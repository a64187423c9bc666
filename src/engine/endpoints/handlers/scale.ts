// The scale subresource (autoscaling/v1 Scale) of deployments, replicasets, statefulsets and
// replicationcontrollers [K8S registry/apps/deployment/storage ScaleREST].

import { rfc3339 } from '../../env.js';
import { StatusError, badRequest, conflict, fieldErr, invalid, unsupportedMediaType } from '../../errors.js';
import { goJsonMarshal, goPrintV } from '../../codec/go-format.js';
import type { DecodeResult } from '../../codec/decode.js';
import { patchInvalid } from '../../schema/prune.js';
import { admissionRequest, fieldValidate, typeCheck } from '../pipeline.js';
import { decodeObjectBody, expectKind } from '../scope.js';
import { unstructuredConverterError } from './patch.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { clone, isPlainObject, type KubeObject } from '../../object.js';
import { decodeBody } from '../../codec/decode.js';
import { applyJsonPatch, decodeJsonPatchBody } from '../../patch/json-patch.js';
import { applyMergePatch, decodeMergePatchBody } from '../../patch/merge-patch.js';
import { applyStrategicMergePatch, decodeStrategicPatchBody } from '../../patch/strategic.js';
import { applyPatch, objectTypeFor, updateScaleManagedFields } from '../../merge/index.js';
import { builtinDefinitions } from '../../resources/index.js';
import { fieldValidationResult } from '../../schema/prune.js';
import type { JsonObject, ManagedFieldsEntry } from '../../object.js';
import type { WriteOptions } from '../pipeline.js';
import { groupVersion } from '../../registry/types.js';
import { bodyMediaType } from '../negotiation/media.js';
import { respond } from '../responders.js';
import { readBody, type Scope } from '../scope.js';
import { writeOptions } from '../pipeline.js';
import { plain } from './create.js';
import { PATCH_TYPES } from './patch.js';
import type { EngineResponse } from '../wire.js';

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

export async function handleScale(scope: Scope): Promise<EngineResponse> {
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
  }
  const opts = writeOptions(scope, isPatch ? 'PatchOptions' : 'UpdateOptions', ct.patch);
  const bytes = await readBody(scope);
  const replicasPath = sc.specReplicasPath.replace(/^\./, '').split('.');
  if (ct.patch === 'apply-patch') return applyScale(scope, bytes, opts, replicasPath);
  const sdef = scaleDefinition(def);
  const warnings: string[] = [];
  let body: unknown;
  let decoded: DecodeResult | undefined;
  let patchErrors: string[] = [];
  if (!isPatch) {
    if (ct.format === 'json' || ct.format === 'yaml') decoded = decodeBody(bytes, ct.format, { expectKind: 'Scale' });
    else {
      // protobuf (typed clients), CBOR behind its gate; anything else is a 415 (decodeObjectBody)
      const other = await decodeObjectBody(scope, { kind: 'Scale', apiVersion: 'autoscaling/v1' }, bytes);
      decoded = { value: other.value, duplicates: [], duplicateMessages: [], mediaType: 'json', nonIntegerNumbers: [] };
    }
    const input = expectKind(scope, decoded.value, 'Scale', 'autoscaling/v1');
    typeCheck(sdef, input);
    const admitted = fieldValidate(sdef, input, decoded, opts.fieldValidation, { operation: 'update', mediaType: ct.format === 'yaml' ? 'yaml' : 'json' });
    warnings.push(...admitted.warnings);
    body = admitted.object;
  } else if (ct.patch === 'json-patch') {
    const jp = decodeJsonPatchBody(bytes, opts.fieldValidation);
    body = jp.patch;
    patchErrors = jp.patchErrors;
  } else {
    decoded = ct.patch === 'merge-patch' ? decodeMergePatchBody(bytes, opts.fieldValidation) : decodeStrategicPatchBody(bytes, opts.fieldValidation);
    body = decoded.value;
  }
  const out = await core.store.update(def, info.namespace, info.name, 'scale', (current) => {
    const scale = toScale(scope, current!);
    let desired: unknown;
    if (!isPatch) desired = body;
    else if (ct.patch === 'json-patch') desired = applyJsonPatch(scale, body);
    else if (ct.patch === 'merge-patch') desired = applyMergePatch(scale, body);
    else desired = applyStrategicMergePatch(scale, body, sdef.schema, sdef.definitions);
    let d: KubeObject;
    if (!isPatch) d = desired as KubeObject;
    else {
      const smp = ct.patch === 'strategic-merge-patch';
      const shown = () => (smp ? goPrintV(body ?? {}) : goJsonMarshal(desired));
      if (!isPlainObject(desired)) throw patchInvalid(shown(), 'the patched Scale is not an object');
      d = desired as KubeObject;
      try {
        typeCheck(sdef, d);
      } catch (e) {
        if (e instanceof StatusError && e.status.code === 400) {
          const msg = e.status.message ?? '';
          const prefix = 'Scale in version "v1" cannot be handled as a Scale: ';
          const inner = msg.startsWith(prefix) ? msg.slice(prefix.length) : msg;
          throw patchInvalid(shown(), smp ? unstructuredConverterError(inner) : inner);
        }
        throw e;
      }
      const admitted = fieldValidate(sdef, d, ct.patch === 'json-patch' ? [] : decoded!, opts.fieldValidation, {
        operation: 'patch',
        patchType: ct.patch === 'json-patch' ? 'json' : ct.patch === 'merge-patch' ? 'merge' : 'strategic',
        patchDocument: smp ? body ?? {} : undefined,
        patchErrors: ct.patch === 'json-patch' ? patchErrors : undefined,
      });
      warnings.push(...admitted.warnings);
      d = admitted.object;
    }
    const replicas = isPlainObject(d.spec) ? (d.spec as Record<string, unknown>).replicas : undefined;
    const r = typeof replicas === 'number' ? replicas : 0;
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
    admission: admissionRequest(scope),
    finalize: (obj, old) => updateScaleManagedFields(old ?? obj, obj, {
      manager: opts.fieldManager,
      apiVersion: groupVersion(def),
      subresource: 'scale',
      time: rfc3339(core.env.clock.now()),
      replicasPath,
    }),
  });
  return respond(200, toScale(scope, out.object), { negotiated: plain(scope), pretty: scope.pretty, warnings: [...warnings, ...out.warnings] });
}

/** The autoscaling/v1 Scale as a definition, for decoding checks and field validation of Scale bodies. */
function scaleDefinition(parent: ResourceDefinition): ResourceDefinition {
  return { ...parent, group: 'autoscaling', version: 'v1', kind: 'Scale', schema: { $ref: 'io.k8s.api.autoscaling.v1.Scale' }, definitions: builtinDefinitions, custom: false } as ResourceDefinition;
}

// ---------------------------------------------------------------------------------------------------
// Server-side apply through /scale (managedfields.ScaleHandler around the Scale endpoint's field manager):
// the parent's owners of the replicas field become autoscaling/v1 entries of the Scale, the configuration is
// applied to that Scale (conflicts name those entries), and the result is mapped back: a parent owner the
// Scale no longer lists loses the replicas field; a new Scale owner gets the parent's apiVersion, no time.

const SCALE_REPLICAS = ['spec', 'replicas'];

function fieldsHas(fields: unknown, path: string[]): boolean {
  let cur = fields;
  for (const p of path) {
    if (!isPlainObject(cur) || !(`f:${p}` in cur)) return false;
    cur = (cur as Record<string, unknown>)[`f:${p}`];
  }
  return true;
}

/** The fieldsV1 without `path`; parents left with no children vanish unless owned themselves ("."). */
function fieldsWithout(fields: JsonObject, path: string[]): JsonObject {
  const out = clone(fields) as Record<string, unknown>;
  const walk = (node: Record<string, unknown>, i: number): boolean => {
    const key = `f:${path[i]}`;
    if (!(key in node)) return false;
    if (i === path.length - 1) delete node[key];
    else {
      const child = node[key] as Record<string, unknown>;
      walk(child, i + 1);
      const keys = Object.keys(child);
      if (keys.length === 0) delete node[key];
      else if (keys.length === 1 && keys[0] === '.') node[key] = {};
    }
    return true;
  };
  walk(out, 0);
  return out as JsonObject;
}

function nested(path: string[]): JsonObject {
  let leaf: JsonObject = {};
  for (let i = path.length - 1; i >= 0; i--) leaf = { [`f:${path[i]}`]: leaf };
  return leaf;
}

/** The identity of an entry (managedfields buildManagerInfo): Apply managers have no apiVersion in it. */
function identity(e: ManagedFieldsEntry): string {
  return JSON.stringify([e.manager ?? '', e.operation ?? '', e.operation === 'Apply' ? '' : e.apiVersion ?? '', e.subresource ?? '']);
}

function sortEntries(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const secs = (e: ManagedFieldsEntry) => (e.time ? Math.floor(Date.parse(e.time) / 1000) : 0);
  const cmp = (a = '', b = '') => (a < b ? -1 : a > b ? 1 : 0);
  return entries.sort((p, q) =>
    cmp(p.operation, q.operation) || secs(p) - secs(q) || cmp(p.manager, q.manager) || cmp(p.apiVersion, q.apiVersion) || cmp(p.subresource, q.subresource));
}

async function applyScale(scope: Scope, bytes: Uint8Array, opts: WriteOptions, replicasPath: string[]): Promise<EngineResponse> {
  const { def, core, info } = scope;
  let decoded;
  try {
    decoded = decodeBody(bytes, 'yaml');
  } catch (e) {
    if (e instanceof StatusError) throw badRequest(`error decoding YAML: ${e.status.message}`);
    throw e;
  }
  const cfg = (isPlainObject(decoded.value) ? decoded.value : {}) as KubeObject;
  const cfgName = isPlainObject(cfg.metadata) ? cfg.metadata.name : undefined;
  if (cfgName !== undefined && cfgName !== info.name) throw badRequest(`the name of the object (${String(cfgName)}) does not match the name on the URL (${info.name})`);
  const scaleType = objectTypeFor({ $ref: 'io.k8s.api.autoscaling.v1.Scale' }, builtinDefinitions);
  const parentGV = groupVersion(def);
  const warnings: string[] = [];
  const out = await core.store.update(def, info.namespace, info.name, 'scale', (current) => {
    const parentEntries = clone(current!.metadata?.managedFields ?? []) as ManagedFieldsEntry[];
    // ToSubresource
    const liveScale = toScale(scope, current!);
    const scaleEntries = parentEntries
      .filter((e) => e.apiVersion === parentGV && fieldsHas(e.fieldsV1, replicasPath))
      .map((e) => ({ ...e, apiVersion: 'autoscaling/v1', fieldsV1: nested(SCALE_REPLICAS) }));
    if (scaleEntries.length) liveScale.metadata = { ...liveScale.metadata, managedFields: scaleEntries };
    const merged = applyPatch(scaleType, liveScale, cfg, {
      manager: opts.fieldManager, apiVersion: 'autoscaling/v1', subresource: 'scale', force: opts.force,
      time: rfc3339(core.env.clock.now()),
    });
    warnings.push(...fieldValidationResult([], decoded, opts.fieldValidation, { kind: 'Scale', version: 'v1', operation: 'patch', patchType: 'apply', mediaType: 'yaml' }).warnings);
    const replicas = isPlainObject(merged.spec) ? (merged.spec as Record<string, unknown>).replicas : undefined;
    const n = typeof replicas === 'number' ? replicas : 0;
    if (n < 0) throw invalid({ group: 'autoscaling', kind: 'Scale' }, info.name, [fieldErr.invalid('spec.replicas', n, 'must be greater than or equal to 0')]);
    // ToParent
    const after = new Map(((merged.metadata?.managedFields ?? []) as ManagedFieldsEntry[]).map((e) => [identity(e), e]));
    const result: ManagedFieldsEntry[] = [];
    for (const e of parentEntries) {
      if (e.apiVersion !== parentGV || !fieldsHas(e.fieldsV1, replicasPath)) {
        result.push(e);
        continue;
      }
      const id = identity({ ...e, apiVersion: 'autoscaling/v1' });
      if (after.has(id)) {
        result.push(e);
        after.delete(id);
      } else {
        const rest = fieldsWithout(e.fieldsV1 as JsonObject, replicasPath);
        if (Object.keys(rest).length) result.push({ ...e, fieldsV1: rest });
      }
    }
    for (const e of after.values()) {
      if (!fieldsHas(e.fieldsV1, SCALE_REPLICAS)) continue;
      const { time: _t, ...rest } = e;
      result.push({ ...rest, apiVersion: parentGV, fieldsV1: nested(replicasPath) });
    }
    const next = clone(current!);
    setPath(next, scope.def.subresources.scale!.specReplicasPath, n);
    const rv = merged.metadata?.resourceVersion;
    next.metadata = { ...next.metadata, resourceVersion: cfg.metadata?.resourceVersion ? rv : current!.metadata?.resourceVersion, managedFields: sortEntries(result) };
    if (!result.length) delete next.metadata.managedFields;
    return next;
  }, { dryRun: opts.dryRun, admission: admissionRequest(scope) });
  return respond(200, toScale(scope, out.object), { negotiated: plain(scope), pretty: scope.pretty, warnings });
}
