// PATCH: JSON Patch, JSON merge patch, strategic merge patch and server-side apply [K8S handlers/patch.go].

import { rfc3339 } from '../../env.js';
import { StatusError, badRequest, fieldErr, invalid, unsupportedMediaType } from '../../errors.js';
import { clone, isPlainObject, type KubeObject } from '../../object.js';
import { decodeBody } from '../deps.js';
import { applyJsonPatch } from '../deps.js';
import { applyMergePatch } from '../deps.js';
import { applyStrategicMergePatch } from '../deps.js';
import { applyPatch as serverSideApply, objectTypeFor } from '../deps.js';
import { groupVersion } from '../../registry/types.js';
import { bodyMediaType } from '../negotiation/media.js';
import { respond } from '../responders.js';
import { canonicalGV, parseWriteOptions, readBody, type Scope } from '../scope.js';
import { fieldValidate, recordUpdate, resetFieldsFor, typeCheck } from '../pipeline.js';
import { plain } from './create.js';

const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

export async function handlePatch(scope: Scope): Promise<Response> {
  const { def, core, info } = scope;
  const custom = (def as { custom?: boolean }).custom === true;
  const ct = bodyMediaType(scope.request.headers.get('Content-Type'));
  const allowed = custom ? PATCH_TYPES.filter((t) => !t.startsWith('application/strategic')) : PATCH_TYPES;
  if (!ct.patch || !allowed.includes(ct.full)) {
    throw new StatusError({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `the body of the request was in an unknown format - accepted media types include: ${allowed.join(', ')}`,
      reason: 'UnsupportedMediaType', code: 415,
    });
  }
  const opts = parseWriteOptions(scope, 'PatchOptions');
  const isApply = ct.patch === 'apply-patch';
  const force = scope.query.get('force');
  const forced = force === 'true' || force === '1';
  if (isApply) {
    if (!opts.fieldManagerGiven) {
      throw invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [fieldErr.required('fieldManager', 'is required for apply patch')]);
    }
  } else if (force !== null && force !== '') {
    throw invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [fieldErr.forbidden('force', 'may not be specified for non-apply patch')]);
  }
  const bytes = await readBody(scope);
  const text = new TextDecoder().decode(bytes);
  if (ct.apply === 'cbor') throw unsupportedMediaType(allowed.join(', '));
  const decoded = decodeBody(text, isApply ? 'yaml' : 'json');
  const patch = decoded.value;
  const subresource = info.subresource;
  const warnings: string[] = [];

  const out = await core.store.update(
    def,
    info.namespace,
    info.name,
    subresource,
    (current) => {
      if (!current) {
        if (!isApply) throw notFoundFor(scope);
        return applyCreate(scope, patch, opts.fieldManager, forced, decoded.duplicates, opts.fieldValidation, warnings);
      }
      if (isApply) return applyUpdate(scope, current, patch, opts.fieldManager, forced, decoded.duplicates, opts.fieldValidation, warnings);
      let next: unknown;
      const base = clone(current);
      if (ct.patch === 'json-patch') next = applyJsonPatch(base, patch);
      else if (ct.patch === 'merge-patch') next = applyMergePatch(base, patch);
      else next = applyStrategicMergePatch(base, patch, def.schema, def.definitions);
      if (!isPlainObject(next)) throw badRequest('the patch produced a value that is not an object');
      const obj = next as KubeObject;
      if (obj.apiVersion !== undefined && canonicalGV(String(obj.apiVersion)) !== groupVersion(def)) {
        // the real server keeps apiVersion/kind of the endpoint
      }
      obj.apiVersion = groupVersion(def);
      obj.kind = def.kind;
      typeCheck(def, obj);
      const admitted = fieldValidate(def, obj, ct.patch === 'json-patch' ? [] : decoded.duplicates, opts.fieldValidation, { operation: 'patch', patchType: ct.patch === 'json-patch' ? 'json' : ct.patch === 'merge-patch' ? 'merge' : 'strategic', patchDocument: patch });
      warnings.push(...admitted.warnings);
      // a patch carrying metadata.resourceVersion is conditional on it
      const rv = isPlainObject(patch) && isPlainObject((patch as KubeObject).metadata) ? (patch as KubeObject).metadata!.resourceVersion : undefined;
      if (rv === undefined) admitted.object.metadata = { ...admitted.object.metadata, resourceVersion: current.metadata?.resourceVersion };
      return admitted.object;
    },
    {
      dryRun: opts.dryRun,
      createOnMissing: isApply,
      finalize: isApply ? undefined : recordUpdate(scope, opts.fieldManager, subresource),
    },
  );
  return respond(out.created ? 201 : 200, out.object, { negotiated: plain(scope), pretty: scope.pretty, warnings: [...warnings, ...out.warnings] });
}

function notFoundFor(scope: Scope): StatusError {
  const { def, info } = scope;
  const gr = def.group ? `${def.plural}.${def.group}` : def.plural;
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `${gr} "${info.name}" not found`, reason: 'NotFound',
    details: { name: info.name, ...(def.group ? { group: def.group } : {}), kind: def.plural }, code: 404,
  });
}

function applyConfig(scope: Scope, patch: unknown): KubeObject {
  const { def, info } = scope;
  if (!isPlainObject(patch)) throw badRequest('couldn\'t get version/kind; json parse error: the body of an apply patch must be an object');
  const cfg = patch as KubeObject;
  if (isPlainObject(cfg.metadata) && cfg.metadata!.managedFields !== undefined) {
    throw badRequest('metadata.managedFields must be nil');
  }
  if (cfg.metadata?.name !== undefined && cfg.metadata.name !== info.name) {
    throw badRequest(`the name of the object (${cfg.metadata.name}) does not match the name on the URL (${info.name})`);
  }
  if (def.namespaced && cfg.metadata?.namespace && cfg.metadata.namespace !== info.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  return cfg;
}

function applyType(scope: Scope) {
  const def = scope.def;
  return objectTypeFor(def.schema, def.definitions, { customResource: (def as { custom?: boolean }).custom === true });
}

function applyCreate(
  scope: Scope, patch: unknown, manager: string, force: boolean, duplicates: string[], level: 'Ignore' | 'Warn' | 'Strict', warnings: string[],
): KubeObject {
  const cfg = applyConfig(scope, patch);
  typeCheck(scope.def, cfg);
  const admitted = fieldValidate(scope.def, cfg, duplicates, level, { operation: 'patch', mediaType: 'yaml' });
  warnings.push(...admitted.warnings);
  const merged = serverSideApply(applyType(scope), null, admitted.object, {
    manager, apiVersion: groupVersion(scope.def), time: rfc3339(scope.core.env.clock.now()), force,
    subresource: scope.info.subresource || undefined,
    resetFields: resetFieldsFor(scope.def, scope.info.subresource),
  });
  (merged.metadata ??= {}).name = scope.info.name;
  return merged;
}

function applyUpdate(
  scope: Scope, current: KubeObject, patch: unknown, manager: string, force: boolean, duplicates: string[], level: 'Ignore' | 'Warn' | 'Strict', warnings: string[],
): KubeObject {
  const cfg = applyConfig(scope, patch);
  typeCheck(scope.def, cfg);
  const admitted = fieldValidate(scope.def, cfg, duplicates, level, { operation: 'patch', mediaType: 'yaml' });
  warnings.push(...admitted.warnings);
  const merged = serverSideApply(applyType(scope), current, admitted.object, {
    manager, apiVersion: groupVersion(scope.def), time: rfc3339(scope.core.env.clock.now()), force,
    subresource: scope.info.subresource || undefined,
    resetFields: resetFieldsFor(scope.def, scope.info.subresource),
  });
  // apply is unconditional unless the config carries a resourceVersion
  if (!cfg.metadata?.resourceVersion) (merged.metadata ??= {}).resourceVersion = current.metadata?.resourceVersion;
  return merged;
}
