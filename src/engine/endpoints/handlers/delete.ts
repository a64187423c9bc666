// DELETE of one object, and deletecollection [K8S handlers/delete.go].

import { GoRepr, badRequest, fieldErr, invalid, type FieldError } from '../../errors.js';
import { isPlainObject } from '../../object.js';
import { decodeBody } from '../deps.js';
import { bodyMediaType } from '../negotiation/media.js';
import { respond, successStatus } from '../responders.js';
import { parseDryRun, readBody, type Scope } from '../scope.js';
import { plain } from './create.js';
import { parseListQuery, readList } from './list.js';
import type { Preconditions } from '../../registry/store.js';

export interface DeleteOptionsParsed {
  dryRun: boolean;
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  preconditions?: Preconditions;
}

const POLICIES = ['Background', 'Foreground', 'Orphan'];

/** DeleteOptions from the body (JSON/YAML) or the query, validated as ValidateDeleteOptions does. */
export async function parseDeleteOptions(scope: Scope): Promise<DeleteOptionsParsed> {
  const q = scope.query;
  const bytes = await readBody(scope);
  let body: Record<string, unknown> = {};
  if (bytes.byteLength > 0) {
    const ct = bodyMediaType(scope.request.headers.get('Content-Type'));
    const { value } = decodeBody(bytes, ct.format === 'yaml' ? 'yaml' : 'json');
    if (value !== null && !isPlainObject(value)) throw badRequest('DeleteOptions in version "v1" cannot be handled as a DeleteOptions: body must be an object');
    body = (value as Record<string, unknown>) ?? {};
    if (body.kind !== undefined && body.kind !== 'DeleteOptions') {
      throw badRequest(`${String(body.kind)} in version "v1" cannot be handled as a DeleteOptions: no kind "${String(body.kind)}" is registered for version "v1"`);
    }
  }
  const errs: FieldError[] = [];
  let dryRun: boolean;
  const bodyDry = body.dryRun;
  if (Array.isArray(bodyDry)) dryRun = parseDryRun(bodyDry.map(String), 'DeleteOptions');
  else dryRun = parseDryRun(q.getAll('dryRun'), 'DeleteOptions');

  let gracePeriodSeconds: number | undefined;
  const g = body.gracePeriodSeconds ?? q.get('gracePeriodSeconds');
  if (g !== undefined && g !== null && g !== '') {
    const n = typeof g === 'number' ? g : /^-?\d+$/.test(String(g)) ? Number(g) : NaN;
    if (!Number.isInteger(n)) throw badRequest(`gracePeriodSeconds: Invalid value: "${String(g)}": must be an integer`);
    gracePeriodSeconds = n;
  }
  const p = (body.propagationPolicy ?? q.get('propagationPolicy') ?? undefined) as string | undefined;
  if (p !== undefined && p !== null && p !== '' && !POLICIES.includes(p)) {
    errs.push(fieldErr.notSupported('propagationPolicy', p, POLICIES));
  }
  const o = body.orphanDependents ?? q.get('orphanDependents');
  let orphanDependents: boolean | undefined;
  if (o !== undefined && o !== null && o !== '') orphanDependents = o === true || o === 'true';
  if (orphanDependents !== undefined && p) {
    errs.push(fieldErr.invalid('propagationPolicy', p, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  const pre = body.preconditions;
  let preconditions: Preconditions | undefined;
  if (isPlainObject(pre)) {
    preconditions = {};
    if (typeof pre.uid === 'string') preconditions.uid = pre.uid;
    if (typeof pre.resourceVersion === 'string') preconditions.resourceVersion = pre.resourceVersion;
  }
  if (body.ignoreStoreReadErrorWithClusterBreakingPotential === true || q.get('ignoreStoreReadErrorWithClusterBreakingPotential') === 'true') {
    if (!scopeGate(scope)) {
      errs.push(fieldErr.forbidden('ignoreStoreReadErrorWithClusterBreakingPotential', 'not allowed unless AllowUnsafeMalformedObjectDeletion is enabled'));
    }
  }
  if (errs.length) throw invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return { dryRun, gracePeriodSeconds, propagationPolicy: p || undefined, orphanDependents, preconditions };
}

function scopeGate(scope: Scope): boolean {
  return !!scope.core.featureGates['AllowUnsafeMalformedObjectDeletion'];
}

export async function handleDelete(scope: Scope): Promise<Response> {
  const { def, core, info } = scope;
  const opts = await parseDeleteOptions(scope);
  const out = await core.store.delete(def, info.namespace, info.name, opts);
  if (!out.deleted && !opts.dryRun && def.group === '' && def.plural === 'namespaces') core.namespaceDeleted(info.name);
  // Immediately removed: Status Success (or the object for kinds that return it); pending: 202 with the object.
  if (!out.deleted) return respond(opts.dryRun ? 200 : 202, out.object, { negotiated: plain(scope), pretty: scope.pretty });
  if ((def as { custom?: boolean }).custom || RETURNS_OBJECT.has(`${def.group}/${def.plural}`)) {
    return respond(200, out.object, { negotiated: plain(scope), pretty: scope.pretty });
  }
  return respond(200, successStatus({ name: info.name, group: def.group || undefined, kind: def.plural, uid: out.object.metadata?.uid }), {
    negotiated: plain(scope),
    pretty: scope.pretty,
  });
}

/** Stores whose delete returns the deleted object (ReturnDeletedObject in the real registries). */
const RETURNS_OBJECT = new Set(['/pods', '/namespaces', '/services', 'apiextensions.k8s.io/customresourcedefinitions']);

export async function handleDeleteCollection(scope: Scope): Promise<Response> {
  const { def, core, info } = scope;
  const opts = await parseDeleteOptions(scope);
  const lq = parseListQuery(scope);
  const { items } = readList(scope, { ...lq, limit: 0, continueToken: '', resourceVersion: '', resourceVersionMatch: '' });
  const deleted = [];
  for (const o of items) {
    try {
      const out = await core.store.delete(def, info.namespace || o.metadata?.namespace || '', o.metadata!.name!, { dryRun: opts.dryRun, gracePeriodSeconds: opts.gracePeriodSeconds });
      deleted.push(out.object);
    } catch {
      // already gone
    }
  }
  const custom = (def as { custom?: boolean }).custom === true;
  return respond(200, {
    kind: def.listKind,
    apiVersion: def.group ? `${def.group}/${def.version}` : def.version,
    metadata: { resourceVersion: String(core.store.state.revision) },
    items: deleted.map((o) => {
      if (!custom) {
        delete o.apiVersion;
        delete o.kind;
      }
      return o;
    }),
  }, { negotiated: plain(scope), pretty: scope.pretty });
}

export { GoRepr };
