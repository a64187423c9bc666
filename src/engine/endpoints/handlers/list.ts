// GET on a collection: list with resourceVersion semantics, chunking and selectors [K8S handlers/get.go ListResource].

import { StatusError, badRequest, gone, tooLargeResourceVersion } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import { matchesFields, matchesLabels, objectFields, parseFieldSelector, parseLabelSelector } from '../../registry/selectors.js';
import { StorageCompactedError, type StoredObject } from '../../storage/interface.js';
import { groupVersion, type ResourceDefinition } from '../../registry/types.js';
import { respond } from '../responders.js';
import { parseIncludeObject, toTable } from '../table.js';
import type { Scope } from '../scope.js';

export interface ListQuery {
  resourceVersion: string;
  resourceVersionMatch: string;
  limit: number;
  continueToken: string;
  labelSelector: ReturnType<typeof parseLabelSelector>;
  fieldSelector: ReturnType<typeof parseFieldSelector>;
  hasSelectors: boolean;
}

export function parseRevision(rv: string): number {
  if (!/^\d+$/.test(rv)) throw badRequest(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
  return Number(rv);
}

/** Field-selector fields this kind supports; anything else is the real 400. */
export function checkFieldSelector(def: ResourceDefinition, fs: ListQuery['fieldSelector']): void {
  const supported = new Set(['metadata.name']);
  if (def.namespaced) supported.add('metadata.namespace');
  // selectableFields advertises its keys on a probe object
  for (const k of Object.keys(def.strategy.selectableFields?.({ metadata: {} }) ?? {})) supported.add(k);
  for (const r of fs) {
    if (!supported.has(r.field)) {
      throw badRequest(`field label not supported: ${r.field}`);
    }
  }
}

export function parseListQuery(scope: Scope): ListQuery {
  const q = scope.query;
  const limitRaw = q.get('limit');
  let limit = 0;
  if (limitRaw !== null && limitRaw !== '') {
    if (!/^-?\d+$/.test(limitRaw)) throw badRequest(`limit: Invalid value: "${limitRaw}": must be an integer`);
    limit = Math.max(0, Number(limitRaw));
  }
  const labelSelector = parseLabelSelector(q.get('labelSelector'));
  const fieldSelector = parseFieldSelector(q.get('fieldSelector'));
  checkFieldSelector(scope.def, fieldSelector);
  return {
    resourceVersion: q.get('resourceVersion') ?? '',
    resourceVersionMatch: q.get('resourceVersionMatch') ?? '',
    limit,
    continueToken: q.get('continue') ?? '',
    labelSelector,
    fieldSelector,
    hasSelectors: labelSelector.length > 0 || fieldSelector.length > 0,
  };
}

export function selectorMatcher(def: ResourceDefinition, lq: ListQuery): (o: KubeObject) => boolean {
  if (!lq.hasSelectors) return () => true;
  return (o) =>
    matchesLabels(lq.labelSelector, o.metadata?.labels) &&
    matchesFields(lq.fieldSelector, objectFields(o, def.namespaced, def.strategy.selectableFields));
}

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

export function encodeContinue(rv: number, startKey: string): string {
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: startKey });
  return btoa(unescape(encodeURIComponent(json))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeContinue(token: string): ContinueToken {
  try {
    const b64 = token.replace(/-/g, '+').replace(/_/g, '/');
    const json = decodeURIComponent(escape(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4))));
    const t = JSON.parse(json) as ContinueToken;
    if (t.v !== 'meta.k8s.io/v1' || typeof t.rv !== 'number' || typeof t.start !== 'string') throw new Error('bad');
    return t;
  } catch {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
}

/** Reads the collection per the spec's list table; returns the items and the list metadata. */
export function readList(scope: Scope, lq: ListQuery): { items: KubeObject[]; meta: Record<string, unknown> } {
  const { def, core } = scope;
  const state = core.store.state;
  const prefix = core.store.prefix(def, scope.info.namespace);
  const match = selectorMatcher(def, lq);
  const rvm = lq.resourceVersionMatch;
  if (rvm !== '' && rvm !== 'Exact' && rvm !== 'NotOlderThan') {
    throw badRequest(`resourceVersionMatch: Unsupported value: "${rvm}": supported values: "Exact", "NotOlderThan"`);
  }
  if (rvm !== '' && lq.resourceVersion === '') {
    throw badRequest(`resourceVersionMatch is forbidden unless resourceVersion is provided`);
  }
  if (lq.continueToken && rvm !== '') {
    throw badRequest(`resourceVersionMatch is forbidden when continue is provided`);
  }
  if (lq.continueToken && lq.resourceVersion !== '' && lq.resourceVersion !== '0') {
    throw badRequest(`specifying resource version is not allowed when using continue`);
  }
  if (rvm === 'Exact' && lq.resourceVersion === '0') {
    throw badRequest(`resourceVersionMatch "exact" is forbidden for resourceVersion "0"`);
  }

  let revision = state.revision;
  let startKey = prefix;
  if (lq.continueToken) {
    const t = decodeContinue(lq.continueToken);
    revision = t.rv;
    startKey = prefix + t.start;
    if (t.rv < state.oldestResumableRevision()) {
      throw gone('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.');
    }
  } else if (lq.resourceVersion !== '' && lq.resourceVersion !== '0') {
    const requested = parseRevision(lq.resourceVersion);
    if (requested > state.revision) throw tooLargeResourceVersion(state.revision, requested);
    const exact = rvm === 'Exact' || (rvm === '' && lq.limit > 0);
    if (exact) revision = requested;
  }

  let stored: StoredObject[];
  try {
    stored = revision === state.revision ? state.list(prefix) : state.listAt(prefix, revision);
  } catch (e) {
    if (e instanceof StorageCompactedError) {
      throw new StatusError({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: `The resourceVersion for the provided list is too old.`,
        reason: 'Expired', code: 410,
      });
    }
    throw e;
  }
  let from = 0;
  if (lq.continueToken) {
    while (from < stored.length && stored[from].key < startKey) from++;
  }
  const items: KubeObject[] = [];
  let i = from;
  let lastKey = '';
  for (; i < stored.length; i++) {
    if (lq.limit > 0 && items.length >= lq.limit) break;
    const o = stored[i].object;
    lastKey = stored[i].key;
    if (match(o)) items.push(o);
  }
  const meta: Record<string, unknown> = { resourceVersion: String(revision) };
  if (lq.limit > 0 && i < stored.length) {
    meta.continue = encodeContinue(revision, lastKey.slice(prefix.length) + '\u0000');
    if (!lq.hasSelectors) meta.remainingItemCount = stored.length - i;
  }
  return { items, meta };
}

export function listKindOf(def: ResourceDefinition): string {
  return def.listKind || `${def.kind}List`;
}

export function handleList(scope: Scope): Response {
  const { def, core } = scope;
  const lq = parseListQuery(scope);
  const { items, meta } = readList(scope, lq);
  const custom = (def as { custom?: boolean }).custom === true;
  const neg = scope.negotiated;
  if (neg.as === 'Table') {
    const include = parseIncludeObject(scope.query);
    const objs = items.map((o) => core.store.present(def, o));
    return respond(200, toTable(def, objs, meta, core.env.clock.now(), include, neg.asVersion!, neg.asGroup!), { negotiated: neg, pretty: scope.pretty });
  }
  if (neg.as === 'PartialObjectMetadataList' || neg.as === 'PartialObjectMetadata') {
    return respond(200, {
      kind: 'PartialObjectMetadataList',
      apiVersion: `${neg.asGroup}/${neg.asVersion}`,
      metadata: meta,
      items: items.map((o) => ({ kind: 'PartialObjectMetadata', apiVersion: `${neg.asGroup}/${neg.asVersion}`, metadata: o.metadata })),
    }, { negotiated: neg, pretty: scope.pretty });
  }
  const body = {
    kind: listKindOf(def),
    apiVersion: groupVersion(def),
    metadata: meta,
    items: items.map((o) => {
      const p = core.store.present(def, o);
      if (!custom) {
        // typed lists carry no apiVersion/kind on their items
        delete p.apiVersion;
        delete p.kind;
      }
      return p;
    }),
  };
  return respond(200, body, { negotiated: neg, pretty: scope.pretty });
}
