// The controller manager's root-CA publisher: every namespace that is not terminating holds the
// `kube-root-ca.crt` ConfigMap; a new namespace gets it right after its creation, a deleted one comes back.
// It picks up from stored state on start (namespaces that lack it get it, none is created twice). It writes
// the stored object directly (one transaction per ConfigMap), with the managedFields the real controller's
// create leaves; the object is the one in default-objects.ts.

import type { Env } from '../env.js';
import { objectKey, parseKey, resourcePrefix } from '../registry/keys.js';
import type { ClusterState } from '../registry/state.js';
import type { HistoryEvent } from '../storage/interface.js';
import { ROOT_CA_CONFIGMAP, rootCaConfigMap } from './default-objects.js';

const NAMESPACES = resourcePrefix('', 'namespaces');
const CONFIGMAPS = resourcePrefix('', 'configmaps');

export class RootCaPublisher {
  private stopped = false;
  private unsubscribe?: () => void;

  constructor(
    private readonly state: ClusterState,
    private readonly env: Env,
  ) {}

  /** Publishes into every namespace that lacks the ConfigMap, then follows namespace and ConfigMap changes. */
  async start(): Promise<void> {
    this.unsubscribe = this.state.subscribe((events) => this.onEvents(events));
    for (const item of this.state.list(NAMESPACES)) await this.ensure(item.object.metadata?.name ?? '');
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
  }

  private onEvents(events: HistoryEvent[]): void {
    for (const e of events) {
      if (e.type === 'ADDED' && e.key.startsWith(NAMESPACES)) void this.ensure(parseKey(e.key).name);
      else if (e.type === 'DELETED' && e.key.startsWith(CONFIGMAPS) && parseKey(e.key).name === ROOT_CA_CONFIGMAP) {
        void this.ensure(parseKey(e.key).namespace);
      }
    }
  }

  /** Creates the ConfigMap in `namespace` when the namespace is active and does not have it; never fails. */
  private ensure(namespace: string): Promise<void> {
    return this.state
      .exclusive(async () => {
        if (this.stopped || !namespace) return;
        const ns = this.state.get(objectKey('', 'namespaces', '', namespace));
        if (!ns || ns.object.metadata?.deletionTimestamp) return;
        if (this.state.get(objectKey('', 'configmaps', namespace, ROOT_CA_CONFIGMAP))) return;
        const cm = rootCaConfigMap(this.env, namespace, this.env.clock.now());
        await this.state.commit([{ kind: 'put', key: cm.key, object: cm.object, expectRevision: 0 }], this.env.clock.now());
      })
      .catch(() => undefined);
  }
}
