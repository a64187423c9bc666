// createApiServer: the whole HTTP API as a function of its storage (docs/design.md 1).
import type { Env } from './env.js';
import type { Storage } from './storage/interface.js';
import type { ControllerSpec } from './controllers/manager.js';
import type { AuthOptions } from './auth/index.js';
import type { WorkloadOptions } from './controllers/index.js';
import type { AuditSink, Policy } from './audit/index.js';
import type { EngineRequest, EngineResponse } from './endpoints/wire.js';

export interface ApiServerOptions {
  storage: Storage;
  env: Env;
  /** Path prefix the host serves the API under, stripped before routing (e.g. "/clusters/default"). */
  basePath?: string;
  /** Event-history retention in ms (default 5 minutes). */
  historyWindowMs?: number;
  /**
   * Feature gates, e.g. { CBORServingAndStorage: true }, over the ones stored with the cluster
   * (features/gates.ts: unknown gates and locked GA gates set the other way stop the engine at start).
   */
  featureGates?: Record<string, boolean>;
  /** runtime-config, e.g. { 'batch/v1': 'false' } (features/runtime-config.ts), over the stored one. */
  runtimeConfig?: Record<string, string>;
  /** Which host runs the engine; gzip is only offered on 'node' (docs/design.md 2). */
  host?: 'node' | 'service-worker' | 'page' | 'test';
  /** The controllers the engine's controller manager runs (default: namespace controller and garbage collector, plus the ClusterRole aggregation and service-account controllers where the bootstrap RBAC policy is kept). */
  controllers?: ControllerSpec[];
  /**
   * A simulated cluster around the API: workload controllers, a scheduler and simulated nodes (off when
   * absent, as a bare API server). `{}` runs them all with three nodes.
   */
  workloads?: WorkloadOptions;
  /** How long after the engine serves its controllers start (default 1000 ms, on the injected timers). */
  controllerStartDelayMs?: number;
  /** Who may act: anonymous requests, static tokens, the bootstrap RBAC policy (auth/index.ts). */
  auth?: AuthOptions;
  /**
   * The objects a fresh real cluster has besides its namespaces (the `kubernetes` Service and its endpoints,
   * the system PriorityClasses, kube-root-ca.crt in every namespace); default true. Tests of list and watch
   * mechanics turn them off to start from namespaces alone.
   */
  defaultObjects?: boolean;
  /**
   * Auditing (audit/): the policy (the Node host's --audit-policy-file; without it the browser hosts use the
   * cluster's stored policy or the playground's default, the others write no events) and where events go
   * besides the engine's own ring of the latest ones (GET /x-playground/audit).
   */
  audit?: { policy?: Policy; sinks?: AuditSink[] };
}

export interface HandleOptions {
  /**
   * The request target exactly as it arrived on the wire (path and query, still percent-encoded, dot
   * segments and backslashes untouched). Hosts that read raw HTTP (the Node host) pass it so that routing
   * never sees a path the URL parser resolved: `configmaps/%2e%2e` must address the name `..`, not the
   * namespace above it. Without it the engine routes on `request.url`.
   */
  target?: string;
  /**
   * The request method as it arrived, when the Fetch API cannot carry it (`new Request` refuses TRACE,
   * TRACK and CONNECT): the host then builds the Request with another method and passes the real one here.
   */
  method?: string;
  /** The peer's IP address, when the host knows it (the audit events' sourceIPs). */
  remoteAddr?: string;
}

export interface ApiServer {
  /** The public entry: a fetch Request in, a fetch Response out (serve() plus one conversion). */
  handle(request: Request, options?: HandleOptions): Promise<Response>;
  /**
   * The same layers without the Fetch API's objects (endpoints/wire.ts): for hosts and in-process clients
   * that hold the request's parts (the Node host, the engine's controllers). A fetch Request is an
   * EngineRequest, and handle(r) answers exactly toFetchResponse(await serve(r)).
   */
  serve(request: EngineRequest, options?: HandleOptions): Promise<EngineResponse>;
  /**
   * Before the engine is ready: the answer to a request that needs only a few stored records (a get by
   * name, without resourceVersion, of a built-in object by the cluster's admin), read from storage for it,
   * as the loaded engine would give it; undefined for any other request, or once the engine is ready (then
   * call serve). Hosts whose engine starts on a request (the service worker) use it so that the first
   * answer does not wait for the whole store to be read. See api-server.ts Engine.serveEarly.
   */
  serveEarly(request: EngineRequest, options?: HandleOptions): Promise<EngineResponse | undefined>;
  /** serveEarly with a fetch Request and Response. */
  handleEarly(request: Request, options?: HandleOptions): Promise<Response | undefined>;
  /** Resolves when the engine has loaded its state from storage and seeded a new cluster. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export { createApiServer } from './endpoints/api-server.js';
export { EngineResponse, WireHeaders, toFetchResponse, engineRequest, type EngineRequest, type EngineHeaderReader, type EngineBody } from './endpoints/wire.js';
