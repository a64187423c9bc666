// The controller manager: the engine's own kube-controller-manager. The API server starts one with a list
// of controllers (api-server.ts); each controller is an API client like any other.
//
// Writing a controller (the interface other controllers build on):
//   export const myController: ControllerFactory = (ctx) => {
//     const q = ctx.queue<string>(async (key) => { ...read with ctx.client, write with ctx.client... });
//     ctx.informer('/apis/apps/v1/deployments', { add: (o) => q.add(keyOf(o)), update: (_, o) => q.add(keyOf(o)) });
//     return { name: 'my-controller' };
//   };
// - ctx.client speaks HTTP to the engine's `handle` as system:serviceaccount:kube-system:<serviceAccount>,
//   with kube-controller-manager's User-Agent (so its writes are managed by "kube-controller-manager").
// - ctx.informer lists then watches a collection (re-watching, re-listing on 410) as kube-controller-manager's
//   shared informers do, with its own user system:kube-controller-manager (a controller's role need not grant
//   list/watch); handlers run for every object at start, so a restarted engine resumes from stored state:
//   keep no progress only in memory.
// - ctx.queue is a deduplicating work queue; delays (addAfter) and backoff run on the injected timers.
// - ctx.discovery() reads the served resources (aggregated discovery) through the client.
// Everything runs on the injected clock and timers, so the same controllers run in every host and in tests.

import type { Env } from '../env.js';
import { ApiClient, type ControllerIdentity, type Handle } from './client.js';
import type { EngineRequest } from '../endpoints/wire.js';
import { Informer, type InformerHandlers, type InformerOptions } from './informer.js';
import { WorkQueue, type Reconcile } from './queue.js';
import { discoverResources, type DiscoveredResource } from './discovery.js';

export interface Controller {
  readonly name: string;
  /** Stops timers and watches of its own beyond the ones the context tracks. */
  stop?(): void;
}

export interface ControllerContext {
  env: Env;
  client: ApiClient;
  /** A client with another identity (a node's kubelet acts as system:node:<name>). */
  clientAs(identity: ControllerIdentity): ApiClient;
  informer(path: string, handlers: InformerHandlers, onGone?: () => void, options?: InformerOptions): Informer;
  queue<K>(reconcile: Reconcile<K>): WorkQueue<K>;
  discovery(): Promise<DiscoveredResource[]>;
}

export interface ControllerSpec {
  /** The service account the controller runs as, e.g. "namespace-controller". */
  serviceAccount?: string;
  /** Or the identity of a component with a user of its own (kube-scheduler). */
  identity?: ControllerIdentity;
  start(ctx: ControllerContext): Controller;
}

export interface ControllerManagerOptions {
  handle: Handle;
  env: Env;
  /** URL prefix of the API as the engine serves it, e.g. "http://localhost/clusters/default". */
  base: string;
  /** Marks a Request as built in-process. */
  mark(request: EngineRequest): void;
}

export class ControllerManager {
  private readonly controllers: Controller[] = [];
  private readonly informers = new Set<Informer>();
  private readonly queues = new Set<WorkQueue<unknown>>();
  private stopped = false;

  constructor(
    private readonly opts: ControllerManagerOptions,
    private readonly specs: ControllerSpec[],
  ) {}

  start(): void {
    if (this.stopped || this.controllers.length) return;
    // the informers list and watch as kube-controller-manager itself (its shared informers), the controllers
    // read and write with their own service accounts
    const shared = new ApiClient(this.opts.handle, this.opts.base, {}, this.opts.mark);
    for (const spec of this.specs) {
      const client = new ApiClient(this.opts.handle, this.opts.base, spec.identity ?? { serviceAccount: spec.serviceAccount }, this.opts.mark);
      const ctx: ControllerContext = {
        env: this.opts.env,
        client,
        clientAs: (identity) => new ApiClient(this.opts.handle, this.opts.base, identity, this.opts.mark),
        informer: (path, handlers, onGone, options) => {
          const inf = new Informer(
            shared,
            this.opts.env,
            path,
            handlers,
            () => {
              this.informers.delete(inf);
              onGone?.();
            },
            options,
          );
          this.informers.add(inf);
          if (!this.stopped) inf.start();
          return inf;
        },
        queue: <K>(reconcile: Reconcile<K>) => {
          const q = new WorkQueue<K>(this.opts.env, reconcile);
          this.queues.add(q as WorkQueue<unknown>);
          return q;
        },
        discovery: () => discoverResources(client),
      };
      this.controllers.push(spec.start(ctx));
    }
  }

  /** Resolves when every controller's queue has nothing ready or in progress (delayed work does not count). */
  async idle(): Promise<void> {
    for (let round = 0; round < 1000; round++) {
      const busy = [...this.queues].filter((q) => !q.idle);
      if (busy.length === 0) return;
      await Promise.all(busy.map((q) => q.whenIdle()));
    }
  }

  get names(): string[] {
    return this.controllers.map((c) => c.name);
  }

  stop(): void {
    this.stopped = true;
    for (const c of this.controllers) c.stop?.();
    for (const i of this.informers) i.stop();
    for (const q of this.queues) q.stop();
    this.informers.clear();
  }
}
