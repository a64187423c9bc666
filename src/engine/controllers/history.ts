// ControllerRevisions as the StatefulSet and DaemonSet controllers keep them (pkg/controller/history):
// one revision per pod template, named <owner>-<hash>, labelled with the template's labels and
// controller.kubernetes.io/hash, owned by its set, its data the patch `kubectl rollout undo` applies
// ({"spec":{"template":{...,"$patch":"replace"}}}, keys sorted as Go marshals a map). A template seen
// before gets its old revision back with the next number; revisions beyond revisionHistoryLimit that no
// pod uses are deleted, oldest first.

import type { KubeObject } from '../object.js';
import type { ApiClient } from './client.js';
import { canonical } from './deployment.js';
import { controllerRef, fnv32a, ownerRefTo, safeEncode } from './workload-util.js';

type Obj = Record<string, any>;

export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

/** The revision data of a template: the patch kubectl's rollback applies (and compares byte for byte). */
export function revisionData(template: unknown): Obj {
  const sortedCopy = JSON.parse(canonical({ ...((template ?? {}) as Obj), $patch: 'replace' }));
  return { spec: { template: sortedCopy } };
}

/** The hash of a revision's data and collision count, in the safe alphabet. */
export function revisionHash(data: Obj, collisionCount?: number): string {
  return safeEncode(fnv32a(canonical(data) + (collisionCount ? `#${collisionCount}` : '')));
}

export interface RevisionSync {
  /** The revision of the current template (created, or an old one renumbered). */
  update: KubeObject;
  /** Every revision the set owns, after the sync. */
  all: KubeObject[];
  collisionCount: number;
}

/** Finds or creates the revision of the set's template (a hash collision raises the count and retries). */
export async function syncRevision(
  client: ApiClient,
  owner: KubeObject,
  ownerKind: 'StatefulSet' | 'DaemonSet',
  owned: KubeObject[],
  collisionCount: number,
): Promise<RevisionSync> {
  const namespace = String(owner.metadata!.namespace);
  const template = ((owner.spec as Obj).template ?? {}) as Obj;
  const data = revisionData(template);
  const dataCanon = canonical(data);
  const byRevision = [...owned].sort((a, b) => Number(a.revision ?? 0) - Number(b.revision ?? 0));
  const maxRevision = Number(byRevision.at(-1)?.revision ?? 0);
  const equal = byRevision.filter((r) => canonical(r.data) === dataCanon);
  const path = `/apis/apps/v1/namespaces/${namespace}/controllerrevisions`;
  if (equal.length) {
    const found = equal[equal.length - 1];
    if (Number(found.revision) === maxRevision) return { update: found, all: byRevision, collisionCount };
    // a template seen before (a rollback): its revision becomes the newest
    const r = await client.request('PUT', `${path}/${found.metadata!.name}`, { ...found, apiVersion: 'apps/v1', kind: 'ControllerRevision', revision: maxRevision + 1 });
    if (r.status >= 400) throw new Error(`updating controller revision ${found.metadata!.name}: ${r.status} ${r.body?.message}`);
    return { update: r.body, all: byRevision.map((x) => (x === found ? r.body : x)), collisionCount };
  }
  for (let count = collisionCount; count < collisionCount + 10; count++) {
    const hash = revisionHash(data, count);
    const cr = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `${owner.metadata!.name}-${hash}`,
        namespace,
        labels: { ...(template.metadata?.labels ?? {}), [REVISION_HASH_LABEL]: hash },
        ownerReferences: [ownerRefTo(owner, 'apps/v1', ownerKind)],
      },
      data,
      revision: maxRevision + 1,
    };
    const r = await client.request('POST', path, cr);
    if (r.status < 400) return { update: r.body, all: [...byRevision, r.body], collisionCount: count };
    if (r.status !== 409) throw new Error(`creating controller revision: ${r.status} ${r.body?.message}`);
    const existing = await client.request('GET', `${path}/${cr.metadata.name}`);
    if (existing.status === 200 && controllerRef(existing.body)?.uid === owner.metadata!.uid && canonical(existing.body.data) === dataCanon) {
      return { update: existing.body, all: [...byRevision, existing.body], collisionCount: count };
    }
  }
  throw new Error(`no free controller revision name for ${owner.metadata!.name}`);
}

/** Deletes the oldest revisions beyond the limit that are neither live nor in use by a pod. */
export async function truncateHistory(client: ApiClient, all: KubeObject[], live: Set<string>, limit: number): Promise<void> {
  const old = [...all].filter((r) => !live.has(String(r.metadata?.name))).sort((a, b) => Number(a.revision ?? 0) - Number(b.revision ?? 0));
  for (const r of old.slice(0, Math.max(0, old.length - limit))) {
    await client.request('DELETE', `/apis/apps/v1/namespaces/${r.metadata!.namespace}/controllerrevisions/${r.metadata!.name}`);
  }
}

/** The template a revision records (its data without the replace directive). */
export function templateOf(revision: KubeObject | undefined): Obj | undefined {
  const t = (revision as Obj | undefined)?.data?.spec?.template;
  if (!t) return undefined;
  const { $patch: _drop, ...rest } = t as Obj;
  void _drop;
  return rest;
}
