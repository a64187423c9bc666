// What the real apiextensions-apiserver's controllers do, inline: serve the resources of established CRDs
// (the registry follows every CRD write in the same request cycle), set the CRD's status conditions, and
// on CRD deletion remove its custom resources (ending their watches) before the CRD itself goes.

import { rfc3339, type Env } from '../env.js';
import { clone, type KubeObject } from '../object.js';
import { namespacePrefix, objectKey, resourcePrefix } from '../registry/keys.js';
import type { ResourceRegistry } from '../registry/resources.js';
import type { ClusterState } from '../registry/state.js';
import type { ResourceDefinition, ResourceStrategy } from '../registry/types.js';
import type { SchemaRegistry } from '../schema/types.js';
import type { HistoryEvent } from '../storage/interface.js';
import type { WatchHub } from '../watch/hub.js';
import { validateCRD, validateCRDUpdate } from './crd-validation.js';
import { validateObjectMetaUpdate } from '../util/validation.js';
import { acceptedNamesOfGroup, definitionsFromCRD, establishedStatus, isEstablished, type CustomResourceDefinitionServing } from './serving.js';

export const CRD_PREFIX = resourcePrefix('apiextensions.k8s.io', 'customresourcedefinitions');
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** The CRD kind's own behaviour on top of its generated definition. */
export function withCrdBehaviour(def: ResourceDefinition): ResourceDefinition {
  const base = def.strategy;
  const strategy: ResourceStrategy = {
    ...base,
    prepareForCreate(obj, ctx) {
      base.prepareForCreate?.(obj, ctx);
      const meta = (obj.metadata ??= {});
      const fin = new Set(meta.finalizers ?? []);
      fin.add(CLEANUP_FINALIZER);
      meta.finalizers = [...fin];
      obj.status = establishedStatus(obj, rfc3339(ctx.now), undefined, namesInGroup(obj, ctx.list('apiextensions.k8s.io', 'customresourcedefinitions')));
    },
    prepareForUpdate(obj, old, ctx) {
      base.prepareForUpdate?.(obj, old, ctx);
      if (ctx.subresource !== 'status') {
        obj.status = establishedStatus(obj, rfc3339(ctx.now), old, namesInGroup(obj, ctx.list('apiextensions.k8s.io', 'customresourcedefinitions')));
      }
    },
    validate(obj) {
      return validateCRD(obj);
    },
    validateUpdate(obj, old, ctx) {
      if (ctx.subresource === 'status') {
        const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
        return errs;
      }
      return validateCRDUpdate(obj, old);
    },
  };
  return { ...def, strategy };
}

function namesInGroup(crd: KubeObject, all: KubeObject[]) {
  const group = (crd.spec as { group?: string } | undefined)?.group ?? '';
  return acceptedNamesOfGroup(group, all, crd.metadata?.name ?? '');
}

export class CrdController {
  private served = new Map<string, CustomResourceDefinitionServing[]>();

  constructor(
    private readonly state: ClusterState,
    private readonly registry: ResourceRegistry,
    private readonly watch: () => WatchHub,
    private readonly env: Env,
    private readonly metaDefinitions: SchemaRegistry,
  ) {}

  /** Serve every stored CRD (engine start) and follow later writes. */
  start(): void {
    for (const item of this.state.list(CRD_PREFIX)) this.sync(item.object);
    this.state.subscribe((events) => this.onEvents(events));
  }

  private onEvents(events: HistoryEvent[]): void {
    for (const e of events) {
      if (!e.key.startsWith(CRD_PREFIX)) continue;
      if (e.type === 'DELETED') {
        this.unserve(e.object.metadata?.name ?? '');
        const group = (e.object.spec as { group?: string } | undefined)?.group;
        if (group) this.env.timers.setTimeout(() => void this.renameGroup(group), 0);
      } else this.sync(e.object);
    }
  }

  private unserve(name: string): void {
    for (const d of this.served.get(name) ?? []) this.registry.remove(d.group, d.version, d.plural);
    this.served.delete(name);
  }

  private sync(crd: KubeObject): void {
    const name = crd.metadata?.name ?? '';
    this.unserve(name);
    const defs = isEstablished(crd) ? definitionsFromCRD(crd, this.metaDefinitions, (g, r, ns, n) => this.state.get(objectKey(g, r, ns, n))?.object) : [];
    for (const d of defs) this.registry.add(d);
    this.served.set(name, defs);
    if (crd.metadata?.deletionTimestamp) this.env.timers.setTimeout(() => void this.cleanup(name), 0);
  }

  /**
   * A CRD of the group went away (requeueAllOtherGroupCRDs): CRDs whose names were not accepted are
   * checked again, and may now be accepted and established.
   */
  async renameGroup(group: string): Promise<void> {
    await this.state.exclusive(async () => {
      const all = this.state.list(CRD_PREFIX);
      for (const item of all) {
        const crd = item.object;
        if ((crd.spec as { group?: string } | undefined)?.group !== group) continue;
        const conds = ((crd.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []);
        if (conds.some((c) => c.type === 'NamesAccepted' && c.status === 'True')) continue;
        const next = clone(crd);
        const others = namesInGroup(crd, this.state.list(CRD_PREFIX).map((i) => i.object));
        next.status = establishedStatus(crd, rfc3339(this.env.clock.now()), crd, others);
        if (JSON.stringify(next.status) === JSON.stringify(crd.status)) continue;
        await this.state.commit([{ kind: 'put', key: item.key, object: next, expectRevision: item.revision }], this.env.clock.now());
      }
    });
  }

  /** CRD being deleted: delete its custom resources, end their watches, then drop the finalizer. */
  async cleanup(name: string): Promise<void> {
    const key = objectKey('apiextensions.k8s.io', 'customresourcedefinitions', '', name);
    const crd = this.state.get(key);
    if (!crd || !crd.object.metadata?.deletionTimestamp) return;
    const spec = crd.object.spec as { group: string; names: { plural: string } };
    const prefix = resourcePrefix(spec.group, spec.names.plural);
    await this.state.exclusive(async () => {
      const items = this.state.list(prefix);
      if (items.length) {
        await this.state.commit(items.map((i) => ({ kind: 'delete' as const, key: i.key, expectRevision: i.revision })), this.env.clock.now());
      }
    });
    this.watch().closeUnder(prefix);
    await this.state.exclusive(async () => {
      const cur = this.state.get(key);
      if (!cur) return;
      const next = clone(cur.object);
      const fins = (next.metadata!.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
      if (fins.length === 0) {
        await this.state.commit([{ kind: 'delete', key, expectRevision: cur.revision }], this.env.clock.now());
      } else {
        next.metadata!.finalizers = fins;
        await this.state.commit([{ kind: 'put', key, object: next, expectRevision: cur.revision }], this.env.clock.now());
      }
    });
  }
}

export { namespacePrefix };
