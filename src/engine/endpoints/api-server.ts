// The engine: routes every request of the HTTP API [K8S endpoints/installer.go + handlers].

import { withDeprecationWarning } from './deprecation.js';
import { goJsonText } from '../codec/go-format.js';
import { rfc3339, type Env } from '../env.js';
import { StatusError, badRequest, methodNotSupported } from '../errors.js';
import type { KubeObject } from '../object.js';
import { objectKey } from '../registry/keys.js';
import { ResourceRegistry } from '../registry/resources.js';
import { ClusterState } from '../registry/state.js';
import { Store, normalizeLayout } from '../registry/store.js';
import type { ResourceDefinition, Verb } from '../registry/types.js';
import { builtinDefinitions, builtinResources, virtualResources } from '../resources/index.js';
import { CrdController, withCrdBehaviour } from '../apiextensions/controller.js';
import { bootstrapPolicyControllers, ControllerManager, defaultControllers, workloadControllers } from '../controllers/index.js';
import { CONTROLLER_MANAGER_USER } from '../controllers/client.js';
import type { ApiServer, ApiServerOptions, HandleOptions } from '../server.js';
import { WatchHub } from '../watch/hub.js';
import { canonicalGroup } from '../util/spelling.js';
import {
  AGGREGATED_CONTENT_TYPE,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  wantsAggregated,
} from './discovery.js';
import { negotiate } from './negotiation/media.js';
import { buildOpenAPIV2, buildOpenAPIV3Discovery, buildOpenAPIV3GroupVersion } from './openapi.js';
import { pathSegments, requestInfo, type RequestInfo, type ResourceRequestInfo } from './request-info.js';
import { nameIsPathSegment } from '../util/validation.js';
import { goQuote } from '../codec/go-format.js';
import { respond, respondError, wantsPretty } from './responders.js';
import type { EngineCore, Scope } from './scope.js';
import { handleCreate } from './handlers/create.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import { handleGet } from './handlers/get.js';
import { handleList } from './handlers/list.js';
import { handlePatch } from './handlers/patch.js';
import { handleUpdate } from './handlers/update.js';
import { handleWatch } from './handlers/watch.js';
import { handleScale } from './handlers/scale.js';
import { handleBinding, isPods } from './handlers/binding.js';
import { handleComputed } from './handlers/computed.js';
import { handleConnect } from './connect.js';
import { PLAYGROUND_CEL_PATH, evaluatePlaygroundCel } from './playground-cel.js';
import { PLAYGROUND_CORRUPT_PATH, corruptTarget, corruptedStatus } from './playground-corrupt.js';
import { PLAYGROUND_FAIL_PATH, PLAYGROUND_RECOVER_PATH, failStatus, failTarget, faultContainer } from './playground-fail.js';
import { FAULTS_KEY, Faults, type FaultState } from '../controllers/faults.js';
import { isUndecodable } from '../storage/undecodable.js';
import { ALL_ALPHA, ALL_BETA, FEATURE_GATES, defaultFeatureGates, parseFeatureGates } from '../features/gates.js';
import { parseRuntimeConfig } from '../features/runtime-config.js';
import { SETTINGS_KEY, checkSettingsText, effectiveSettings, settingsObject, storedSettingsText, type SettingsText } from '../features/settings.js';

/** The playground's cluster settings endpoint (not part of the Kubernetes API). */
export const PLAYGROUND_SETTINGS_PATH = '/x-playground/settings';
/** The latest audit events of the cluster (admin only, as the settings). */
export const PLAYGROUND_AUDIT_PATH = '/x-playground/audit';
import { decodeBody } from '../codec/decode.js';
import { readLimitedBody } from '../codec/read-body.js';
import { authenticate, createClusterAuth, impersonate, requestAttributes, reconcileBootstrapRbac, type ClusterAuth, type UserInfo } from '../auth/index.js';
import { authEndpointKind, handleAuthEndpoint } from '../auth/endpoints.js';
import { guardEscalation } from '../auth/escalation.js';
import { requestAuthorization } from '../auth/request-checks.js';
import { servesProtobuf } from './scope.js';
import { encodeOpenAPIV2Proto, OPENAPI_V2_PROTO_CONTENT_TYPE, OPENAPI_V2_PROTO_SUBTYPES } from './openapi-proto.js';
import { parseAccept } from './negotiation/media.js';
import { ALL_AUTHENTICATED, ANONYMOUS_USER, APISERVER_USER, serviceAccountGroups } from '../auth/user.js';
import { forbiddenError } from '../auth/authorize.js';
import { AuditLog, annotateDeprecated, failedAuthenticationMessage, isLongRunning, parsePolicy, PLAYGROUND_DEFAULT_POLICY, PolicyError, type AuditContext } from '../audit/index.js';
import { ApiMetrics, METRICS_CONTENT_TYPE, routeLabels } from './metrics.js';
import { defaultObjects, ROOT_CA_CONFIGMAP } from '../bootstrap/default-objects.js';
import { storageLocation } from '../registry/conversion.js';
import type { StorageKey } from '../storage/interface.js';
import { RootCaPublisher } from '../bootstrap/root-ca-publisher.js';
import { EngineResponse, toFetchResponse } from './wire.js';
import type { EngineRequest } from './wire.js';

const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export const SERVER_VERSION = {
  major: '1',
  minor: '33',
  emulationMajor: '1',
  emulationMinor: '33',
  minCompatibilityMajor: '1',
  minCompatibilityMinor: '32',
  gitVersion: 'v1.33.0',
  gitCommit: '60a317eadfcb839692a68eab88b2096f4d708f4f',
  gitTreeState: 'clean',
  buildDate: '2025-04-23T13:00:03Z',
  goVersion: 'go1.24.2',
  compiler: 'gc',
  platform: 'js/wasm',
};

class Engine implements EngineCore {
  readonly registry: ResourceRegistry;
  store!: Store;
  watch!: WatchHub;
  readonly featureGates: Record<string, boolean>;
  readonly host: EngineCore['host'];
  readonly historyWindowMs: number;
  bookmarkIntervalMs = 60_000;
  crds!: CrdController;
  controllers: ControllerManager | undefined;
  /** Failures injected through /x-playground/fail (the simulated kubelets act on them). */
  readonly faults = new Faults();
  private controllerStartTimer: unknown;
  /** Requests built by the controller manager (their identity headers are trusted). */
  private readonly internalRequests = new WeakSet<object>();
  auth!: ClusterAuth;
  /** Whether the bootstrap RBAC policy (roles and bindings, the controllers' among them) is kept in this cluster. */
  get bootstrapPolicy(): boolean {
    return this.opts.auth?.bootstrapPolicy ?? (this.host === 'service-worker' || this.host === 'page');
  }
  private rootCa?: RootCaPublisher;
  readonly metrics: ApiMetrics;
  /** The audit log: the policy in effect, the host's sinks, the latest events (audit/log.ts). */
  readonly audit: AuditLog;
  private readonly basePath: string;
  private compactTimer: unknown;
  private closed = false;
  /** The stored settings applied (the first step of start()); early answers wait for it. */
  private settingsApplied: Promise<void> = Promise.resolve();
  /** The newest store revision an early answer read (start() loads at least that revision). */
  private earlyRevision = 0;

  constructor(
    readonly env: Env,
    private readonly opts: ApiServerOptions,
  ) {
    this.registry = new ResourceRegistry(
      [...builtinResources, ...virtualResources].map((d) => (d.group === 'apiextensions.k8s.io' && d.plural === 'customresourcedefinitions' ? withCrdBehaviour(d) : d)),
    );
    // every gate's default until start() applies the cluster's settings (features/settings.ts)
    this.featureGates = defaultFeatureGates();
    this.host = opts.host ?? 'test';
    this.historyWindowMs = opts.historyWindowMs ?? 5 * 60_000;
    this.basePath = (opts.basePath ?? '').replace(/\/+$/, '');
    this.metrics = new ApiMetrics(env.clock);
    this.audit = new AuditLog(env, opts.audit?.policy);
    for (const sink of opts.audit?.sinks ?? []) this.audit.addSink(sink);
  }

  /** The settings stored with the cluster (as typed), and the gates and API enablement in effect. */
  settingsText: SettingsText = { featureGates: '', runtimeConfig: '', auditPolicy: '' };
  settingsWarnings: string[] = [];

  /**
   * Feature gates and runtime-config: the stored settings, then the host's options over them; an invalid
   * setting stops the engine at start, as it stops kube-apiserver. Built-in versions and resources turned
   * off leave the registry (discovery, OpenAPI and paths follow); custom resources are not affected.
   */
  private async applySettings(): Promise<void> {
    const stored = await this.opts.storage.get(SETTINGS_KEY);
    this.settingsText = storedSettingsText(stored?.object);
    this.applyAuditPolicy(this.settingsText.auditPolicy ?? '');
    let gates: Record<string, boolean> = {};
    try {
      gates = parseFeatureGates(this.settingsText.featureGates);
    } catch {
      // checked when written
    }
    gates = { ...gates, ...(this.opts.featureGates ?? {}) };
    const runtimeConfig = { ...parseRuntimeConfig(this.settingsText.runtimeConfig), ...(this.opts.runtimeConfig ?? {}) };
    const eff = effectiveSettings(gates, runtimeConfig);
    Object.assign(this.featureGates, eff.featureGates);
    this.settingsWarnings = eff.warnings;
    for (const d of this.registry.all()) {
      if ((d as { custom?: boolean }).custom) continue;
      if (!eff.enablement.served(d.group, d.version, d.plural)) this.registry.remove(d.group, d.version, d.plural);
    }
  }

  /**
   * The audit policy in effect: the host's (the Node host's --audit-policy-file) over the cluster's stored
   * one; the browser hosts fall back to the playground's default policy, the others write no events.
   */
  private applyAuditPolicy(stored: string): void {
    if (this.opts.audit?.policy) return;
    let text = stored;
    if (!text.trim() && (this.host === 'service-worker' || this.host === 'page')) text = PLAYGROUND_DEFAULT_POLICY;
    try {
      this.audit.setPolicy(text.trim() ? parsePolicy(text) : undefined);
    } catch {
      // checked when written
      this.audit.setPolicy(undefined);
    }
  }

  async start(): Promise<void> {
    await (this.settingsApplied = this.applySettings());
    this.faults.load((await this.opts.storage.get(FAULTS_KEY))?.object as Partial<FaultState> | undefined);
    let state = await ClusterState.load(this.opts.storage);
    // an early answer read a newer revision than this load holds (another engine of the database wrote in
    // between): load again, so that no answer of this engine goes back behind one it gave. The early read
    // was done before this load began, so the next load holds its revision.
    while (state.revision < this.earlyRevision) state = await ClusterState.load(this.opts.storage);
    this.store = new Store(state, this.registry, this.env);
    this.store.gates = this.featureGates;
    this.watch = new WatchHub(state, this.env);
    // an undecodable value written or removed: the resource's watch cache (its reflector meets the decode
    // error and restarts) ends every watch of that resource, as the real cacher's terminateAllWatchers does
    state.subscribe((events) => {
      for (const e of events) {
        if (isUndecodable(e.object) || isUndecodable(e.prevObject)) this.watch.closeUnder(e.key.split('/', 3).join('/') + '/');
      }
    });
    if (state.revision === 0) await this.seed();
    this.crds = new CrdController(state, this.registry, () => this.watch, this.env, builtinDefinitions);
    this.crds.start();
    this.auth = createClusterAuth(state, this.env);
    if (this.bootstrapPolicy) {
      await reconcileBootstrapRbac(state, (req, user) => this.handle(req, {}, user), this.basePath);
    }
    if (this.opts.defaultObjects !== false) {
      this.rootCa = new RootCaPublisher(state, this.env);
      await this.rootCa.start();
    }
    this.scheduleCompaction();
  }

  /**
   * The controller manager (namespace controller, garbage collector, and where the bootstrap policy is kept
   * the ClusterRole aggregation and service-account controllers): API clients of this engine, started once
   * it serves; they resume from stored state (their informers list everything first).
   */
  startControllers(handle: (request: EngineRequest) => Promise<EngineResponse>): void {
    const specs = [
      ...(this.opts.controllers ?? [...defaultControllers, ...(this.bootstrapPolicy ? bootstrapPolicyControllers : [])]),
      ...(this.opts.workloads ? workloadControllers({ ...this.opts.workloads, featureGates: this.featureGates, faults: this.faults }) : []),
    ];
    if (this.closed || specs.length === 0) return;
    this.controllers = new ControllerManager(
      { handle, env: this.env, base: `http://localhost${this.basePath}`, mark: (r) => void this.internalRequests.add(r) },
      specs,
    );
    // like a kube-controller-manager that starts once the API server answers and it holds its leader lease:
    // a moment after the engine serves, so that starting its informers does not compete with the first requests
    const manager = this.controllers;
    this.controllerStartTimer = this.env.timers.setTimeout(() => {
      this.controllerStartTimer = undefined;
      if (!this.closed) manager.start();
    }, this.opts.controllerStartDelayMs ?? 1000);
  }

  /**
   * An early answer, before the engine has loaded its state (the service worker's cold start: reading every
   * stored object takes most of a second). A get by name, without resourceVersion, of a built-in object,
   * by the cluster's admin, needs one stored record: kube-apiserver answers such a get by a quorum read of
   * etcd, not from its watch cache, and this reads the record with the store's revision in one storage
   * transaction (Storage.readKeys) and serves the request through the same layers (audit, authentication,
   * authorization, metrics, the get handler) over a state that holds only that record
   * (ClusterState.partial, which throws on anything else). So the answer is the one the loaded engine gives,
   * byte for byte. Undefined when the request is not such a get, when the store is empty (the start seeds
   * it) or the read fails: the caller then waits for the start.
   */
  async serveEarly(request: EngineRequest, options: HandleOptions = {}): Promise<EngineResponse | undefined> {
    const storage = this.opts.storage;
    if (!storage.readKeys || this.closed) return undefined;
    const key = this.earlyKey(request, options);
    if (key === undefined) return undefined;
    // issued now: a request that wakes the engine reads its record before the start's read of everything
    const reading = storage.readKeys([key]);
    reading.catch(() => undefined);
    try {
      await this.settingsApplied; // gates, runtime-config (served resources) and the audit policy
      const records = await reading;
      if (records.revision === 0 || this.closed) return undefined;
      if (records.revision > this.earlyRevision) this.earlyRevision = records.revision;
      const state = ClusterState.partial(storage, [key], records);
      const res = await this.viewOver(state).handle(request, options);
      // never by construction (earlyKey): a layer asked for more than the record; the start answers it
      return state.missed === undefined ? res : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The storage key an early answer reads, or undefined when the request needs more than that record: only
   * GET of a named object with no resourceVersion (a resourceVersion asks for the engine's revisions), made
   * without credentials and without impersonation by the admin the engine takes such requests for (system:
   * masters: authorization reads no RBAC object; an anonymous-requests cluster does not qualify), of a
   * resource of a group without a dot (no CustomResourceDefinition can serve one: crd-validation.ts; the
   * CRDs are read by the start), and not an object the start may write (the root CA ConfigMap publisher;
   * the bootstrap RBAC policy is in a group with a dot; a new cluster's seed is an empty store).
   */
  private earlyKey(request: EngineRequest, options: HandleOptions): StorageKey | undefined {
    if ((options.method ?? request.method).toUpperCase() !== 'GET') return undefined;
    if (this.opts.auth?.anonymous || request.headers.has('Authorization')) return undefined;
    let impersonating = false;
    request.headers.forEach((_, name) => void (impersonating ||= name.toLowerCase().startsWith('impersonate-')));
    if (impersonating) return undefined;
    const target = options.target === undefined ? parsedUrl(request.url) : splitTarget(options.target);
    const path = this.stripBase(target.path);
    if (path === undefined) return undefined;
    const query = new URLSearchParams(target.query);
    if (query.get('resourceVersion')) return undefined;
    const info = requestInfo('GET', path, query);
    if (!info.isResourceRequest || info.verb !== 'get' || !info.name || info.subresource || info.watchPath || info.rest.length > 0) return undefined;
    if (info.group.includes('.') || authEndpointKind(info)) return undefined;
    const def = this.registry.lookup(info.group, info.version, info.resource);
    if (!def || (def as { custom?: boolean }).custom || def.computed || !def.verbs.includes('get')) return undefined;
    if (def.namespaced ? !info.namespace : info.namespace) return undefined;
    if (def.group === '' && def.plural === 'configmaps' && info.name === ROOT_CA_CONFIGMAP) return undefined;
    if (nameIsPathSegment(info.name, false).length > 0) return undefined;
    const at = storageLocation(def);
    return objectKey(at.group, at.resource, def.namespaced ? info.namespace : '', info.name);
  }

  /** This engine with a store and an authorizer over `state` (its other parts shared): early answers' engine. */
  private viewOver(state: ClusterState): Engine {
    const view = Object.create(this) as Engine;
    view.store = new Store(state, this.registry, this.env);
    view.store.gates = this.featureGates;
    view.auth = createClusterAuth(state, this.env);
    return view;
  }

  /** The service-account user of a request the controller manager built (X-Remote-User), else undefined. */
  private controllerRequester(request: EngineRequest): UserInfo | undefined {
    if (!this.internalRequests.has(request)) return undefined;
    const name = request.headers.get('X-Remote-User') ?? '';
    const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(name);
    // kube-scheduler and the simulated nodes' kubelets have users of their own
    const component = name === 'system:kube-scheduler' || /^system:node:[^:]+$/.test(name);
    if (!m && name !== CONTROLLER_MANAGER_USER && !component) return undefined;
    // without the bootstrap policy no role grants the controllers anything: they then act with the API
    // server's own loopback identity, as a cluster whose controller manager holds admin credentials
    if (!this.bootstrapPolicy) return APISERVER_USER;
    // the manager's own user (its shared informers), or a controller's service account
    if (name.startsWith('system:node:')) return { name, groups: ['system:nodes', ALL_AUTHENTICATED] };
    if (!m) return { name, groups: [ALL_AUTHENTICATED] };
    return { name, groups: [...serviceAccountGroups(m[1]), ALL_AUTHENTICATED] };
  }

  isInternal(request: EngineRequest): boolean {
    return this.internalRequests.has(request);
  }

  private async seed(): Promise<void> {
    const now = this.env.clock.now();
    const nsDef = this.registry.lookup('', 'v1', 'namespaces')!;
    const ops = INITIAL_NAMESPACES.map((name) => {
      const obj: KubeObject = {
        kind: 'Namespace',
        apiVersion: 'v1',
        metadata: {
          name,
          uid: this.env.ids.uid(),
          creationTimestamp: rfc3339(now),
          labels: { 'kubernetes.io/metadata.name': name },
          managedFields: [
            {
              manager: 'kube-apiserver',
              operation: 'Update',
              apiVersion: 'v1',
              time: rfc3339(now),
              fieldsType: 'FieldsV1',
              fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:kubernetes.io/metadata.name': {} } } },
            },
          ],
        },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      };
      void nsDef;
      return { kind: 'put' as const, key: objectKey('', 'namespaces', '', name), object: normalizeLayout(obj), expectRevision: 0 };
    });
    // then what the apiserver itself creates on its first start (the root-CA ConfigMaps come from RootCaPublisher)
    if (this.opts.defaultObjects !== false) for (const d of defaultObjects(this.env, now)) ops.push({ kind: 'put' as const, key: d.key, object: d.object, expectRevision: 0 });
    await this.store.state.exclusive(async () => {
      // one object per revision, as separate creates would be
      for (const op of ops) await this.store.state.commit([op], now);
    });
  }

  private scheduleCompaction(): void {
    if (this.closed) return;
    const every = Math.max(1000, Math.min(60_000, Math.floor(this.historyWindowMs / 5)));
    this.compactTimer = this.env.timers.setTimeout(async () => {
      try {
        await this.store.state.compact(this.env.clock.now() - this.historyWindowMs);
      } catch {
        // try again next round
      }
      this.scheduleCompaction();
    }, every);
  }

  async compactNow(): Promise<void> {
    await this.store.state.compact(this.env.clock.now() - this.historyWindowMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.controllerStartTimer !== undefined) this.env.timers.clearTimeout(this.controllerStartTimer);
    this.controllers?.stop();
    this.rootCa?.stop();
    if (this.compactTimer !== undefined) this.env.timers.clearTimeout(this.compactTimer);
    this.watch?.closeAll();
    await this.opts.storage.close();
  }

  stripBase(pathname: string): string | undefined {
    if (!this.basePath) return pathname;
    if (pathname === this.basePath) return '/';
    if (pathname.startsWith(this.basePath + '/')) return pathname.slice(this.basePath.length);
    return undefined;
  }

  /**
   * The whole API; `as` is the identity of the engine's own clients (post-start hooks, controllers). The
   * audit layer (audit/log.ts) wraps it: the request's audit ID first, its events as the pipeline learns who
   * asked and how the request ended, the `Audit-Id` header on every answer.
   */
  async handle(request: EngineRequest, options: HandleOptions = {}, as?: UserInfo): Promise<EngineResponse> {
    // Route on the raw target when the host has it: the URL parser has resolved `%2e%2e`, `.` and `\`.
    // Without it, on the request's URL as the URL parser reads it (a URL of plain characters is split as is).
    const target = options.target === undefined ? parsedUrl(request.url) : splitTarget(options.target);
    const rawPath = target.path;
    const path = this.stripBase(rawPath);
    const audit = this.audit.begin(request, (path ?? rawPath) + searchOf(target.query), options.remoteAddr);
    const res = await this.route(request, options, as, audit, target, path);
    return audit.finish(res);
  }

  private async route(
    request: EngineRequest, options: HandleOptions, as: UserInfo | undefined, audit: AuditContext, target: { path: string; query: string }, path: string | undefined,
  ): Promise<EngineResponse> {
    const query = new URLSearchParams(target.query);
    const pretty = wantsPretty(query, request.headers.get('User-Agent'));
    try {
      if (path === undefined) throw notFoundPath();
      const method = (options.method ?? request.method).toUpperCase();
      if (path === PLAYGROUND_CEL_PATH && method === 'POST') {
        const body = decodeBody(await readLimitedBody(request), 'json', { interpretKind: false }).value;
        return respond(200, evaluatePlaygroundCel(body), { pretty });
      }
      if (path === PLAYGROUND_CORRUPT_PATH) return await this.playgroundCorrupt(method, request, query, pretty, as, audit);
      if (path === PLAYGROUND_FAIL_PATH || path === PLAYGROUND_RECOVER_PATH) return await this.playgroundFail(path === PLAYGROUND_FAIL_PATH ? 'fail' : 'recover', method, request, query, pretty, as, audit);
      if (!SERVED_METHODS.has(method)) this.refuseMethod(path, query);
      const info = requestInfo(method, path, query);
      const user = this.filters(request, as, audit, info, path, query);
      if (path === PLAYGROUND_SETTINGS_PATH) return await this.playgroundSettings(method, request, pretty);
      if (path === PLAYGROUND_AUDIT_PATH) return this.playgroundAudit(method, pretty);
      // (no non-resource path is a resource request: those skip the non-resource routes)
      const nonResource = info.isResourceRequest ? undefined : this.nonResource(method, path, query, pretty, request.headers.get('Accept'));
      if (nonResource) return nonResource;
      if (!info.isResourceRequest) {
        if (info.discovery) return this.discovery(info.discovery, request, pretty);
        throw notFoundPath();
      }
      const def = this.registry.lookup(info.group, info.version, info.resource);
      if (!def?.deprecated) return await this.resource(info, request, query, pretty, user);
      let res: EngineResponse;
      try {
        res = await this.resource(info, request, query, pretty, user);
      } catch (e) {
        res = respondError(e, { pretty, errorAccept: this.errorAccept(request) });
      }
      annotateDeprecated(audit, def.deprecated);
      return withDeprecationWarning(def, res);
    } catch (e) {
      return respondError(e, { pretty, errorAccept: this.errorAccept(request) });
    }
  }

  /**
   * The filter chain (docs: request pipeline): authentication -> audit policy -> impersonation ->
   * authorization, with the decision and its reason as audit annotations. The controller manager's own
   * requests carry their service account (trusted only for requests it built). Answers the user the request
   * acts as; throws the filter's Status (401, 403).
   */
  private filters(request: EngineRequest, as: UserInfo | undefined, audit: AuditContext, info: RequestInfo, path: string, query: URLSearchParams): UserInfo {
    let requester: UserInfo;
    try {
      requester = as ?? this.controllerRequester(request) ?? authenticate(request, this.opts.auth ?? {}, this.auth.tokenChecker);
    } catch (e) {
      // WithFailedAuthenticationAudit: policy without a user, one ResponseStarted event
      audit.failedAuthentication = failedAuthenticationMessage(request, query);
      audit.start(requestAttributes(ANONYMOUS_USER, info, path, query), false);
      throw e;
    }
    const requesterAttrs = requestAttributes(requester, info, path, query);
    audit.longRunning = isLongRunning(requesterAttrs);
    audit.start(requesterAttrs);
    const user = impersonate(request.headers, requester, this.auth.authorizer);
    if (user !== requester) audit.impersonated(user);
    const attrs = user === requester ? requesterAttrs : requestAttributes(user, info, path, query);
    const answer = this.auth.authorizer.authorize(attrs);
    audit.annotate('authorization.k8s.io/decision', answer.decision === 'allow' ? 'allow' : 'forbid');
    audit.annotate('authorization.k8s.io/reason', answer.reason);
    if (answer.decision !== 'allow') throw forbiddenError(attrs, answer.reason);
    return user;
  }

  /** How error Statuses are written for this request (ErrorNegotiated over the codec's serializers). */
  private errorAccept(request: EngineRequest): { accept: string | null; cbor: boolean } {
    return { accept: request.headers.get('Accept'), cbor: !!this.featureGates['CBORServingAndStorage'] };
  }

  /**
   * GET/PUT /x-playground/settings: the cluster's feature gates and runtime-config as stored with it (applied
   * on the next start, like the real flags). PUT checks them with the Node host's messages (400 when refused)
   * and answers `X-Playground-Restart: true`, on which the browser hosts restart the cluster's engine.
   */
  private async playgroundSettings(method: string, request: EngineRequest, pretty: boolean): Promise<EngineResponse> {
    if (method === 'GET' || method === 'HEAD') return respond(200, this.settingsView(this.settingsText, false), { pretty });
    if (method !== 'PUT') throw methodNotAllowedRoute();
    const body = decodeBody(await readLimitedBody(request), 'json', { interpretKind: false }).value as Record<string, unknown> | null;
    const text: SettingsText = {
      featureGates: typeof body?.featureGates === 'string' ? body.featureGates : '',
      runtimeConfig: typeof body?.runtimeConfig === 'string' ? body.runtimeConfig : '',
      // absent: the stored audit policy stays
      auditPolicy: typeof body?.auditPolicy === 'string' ? body.auditPolicy : this.settingsText.auditPolicy ?? '',
    };
    let warnings: string[];
    try {
      warnings = checkSettingsText(text).warnings;
    } catch (e) {
      throw badRequest((e as Error).message);
    }
    if (text.auditPolicy?.trim()) {
      try {
        parsePolicy(text.auditPolicy);
      } catch (e) {
        if (!(e instanceof PolicyError)) throw e;
        throw badRequest(`invalid audit policy: ${e.message}`);
      }
    }
    await this.store.state.exclusive(async () => {
      const cur = await this.opts.storage.get(SETTINGS_KEY);
      await this.store.state.commit([{ kind: 'put', key: SETTINGS_KEY, object: settingsObject(text), expectRevision: cur?.revision ?? 0 }], this.env.clock.now());
    });
    // the audit policy applies at once; gates and runtime-config on the next start
    const restart = text.featureGates !== this.settingsText.featureGates || text.runtimeConfig !== this.settingsText.runtimeConfig;
    this.settingsText = { ...this.settingsText, auditPolicy: text.auditPolicy };
    this.applyAuditPolicy(text.auditPolicy ?? '');
    return respond(200, this.settingsView(text, restart), { pretty, warnings, headers: restart ? { 'X-Playground-Restart': 'true' } : {} });
  }

  /** GET /x-playground/audit: the latest audit events the engine kept, oldest first, and the policy in effect. */
  private playgroundAudit(method: string, pretty: boolean): EngineResponse {
    if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowedRoute();
    const { items, total } = this.audit.events();
    return respond(200, { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items, written: total, capacity: this.audit.capacity, policy: this.audit.policy ?? null }, { pretty });
  }

  private settingsView(text: SettingsText, restart: boolean): unknown {
    const gates = Object.entries(FEATURE_GATES)
      .filter(([name]) => name !== ALL_ALPHA && name !== ALL_BETA)
      .map(([name, spec]) => ({ name, stage: spec.stage, default: spec.default, locked: spec.locked === true, enabled: this.featureGates[name] }));
    const disabled = builtinResources
      .filter((d) => !this.registry.lookup(d.group, d.version, d.plural))
      .map((d) => `${d.group ? `${d.group}/` : ''}${d.version}/${d.plural}`);
    return {
      kind: 'ClusterSettings', apiVersion: 'x-playground/v1',
      featureGates: text.featureGates, runtimeConfig: text.runtimeConfig, auditPolicy: text.auditPolicy ?? '',
      defaultAuditPolicy: this.host === 'service-worker' || this.host === 'page' ? PLAYGROUND_DEFAULT_POLICY : '',
      ...(restart ? { restartRequired: true } : {}),
      inEffect: { gates, disabledResources: disabled, warnings: this.settingsWarnings },
    };
  }

  /**
   * POST /x-playground/corrupt (playground-corrupt.ts): through the filter chain as an update of the object
   * (audited as one, with the request's own URI).
   */
  private async playgroundCorrupt(method: string, request: EngineRequest, query: URLSearchParams, pretty: boolean, as: UserInfo | undefined, audit: AuditContext): Promise<EngineResponse> {
    if (method !== 'POST') throw methodNotAllowedRoute();
    const t = corruptTarget(this.registry, query);
    this.filters(request, as, audit, t.info, t.path, new URLSearchParams());
    const changed = await this.store.corrupt(t.def, t.info.namespace, t.info.name);
    return respond(200, corruptedStatus(t.def, t.info.namespace, t.info.name, changed), { pretty });
  }

  /**
   * POST /x-playground/fail|recover (playground-fail.ts): through the filter chain as an update of the pod's
   * or node's status (audited as one, with the request's own URI); the fault is kept with the cluster and the
   * simulated kubelets act on it.
   */
  private async playgroundFail(action: 'fail' | 'recover', method: string, request: EngineRequest, query: URLSearchParams, pretty: boolean, as: UserInfo | undefined, audit: AuditContext): Promise<EngineResponse> {
    if (method !== 'POST') throw methodNotAllowedRoute();
    const t = failTarget(query, action);
    this.filters(request, as, audit, t.info, t.path, new URLSearchParams());
    if (!this.opts.workloads) throw badRequest('this cluster simulates no nodes (its workload controllers are off): there is no kubelet to fail');
    const now = this.env.clock.now();
    let changed: boolean;
    let container: string | undefined;
    if (t.kind === 'node') {
      this.store.get(this.registry.lookup('', 'v1', 'nodes')!, '', t.name);
      changed = action === 'fail' ? this.faults.failNode(t.name, now) : this.faults.recoverNode(t.name);
    } else {
      const pod = this.store.get(this.registry.lookup('', 'v1', 'pods')!, t.namespace, t.name);
      if (action === 'fail') {
        container = faultContainer(pod, t.container);
        changed = this.faults.failContainer(t.namespace, t.name, container, String(pod.metadata?.uid), now);
      } else {
        container = t.container === undefined ? undefined : faultContainer(pod, t.container);
        changed = this.faults.recoverPod(t.namespace, t.name, container);
      }
    }
    if (changed) await this.saveFaults();
    return respond(200, failStatus(action, t, container, changed), { pretty });
  }

  private async saveFaults(): Promise<void> {
    await this.store.state.exclusive(async () => {
      const cur = await this.opts.storage.get(FAULTS_KEY);
      const object = { apiVersion: 'x-playground/v1', kind: 'Faults', metadata: { name: 'cluster' }, ...this.faults.snapshot() } as unknown as KubeObject;
      await this.store.state.commit([{ kind: 'put', key: FAULTS_KEY, object, expectRevision: cur?.revision ?? 0 }], this.env.clock.now());
    });
  }

  /**
   * A method no route serves (TRACE, OPTIONS, FOO...): the real server's router answers 405 for a path it
   * serves and 404 for one it does not, before any handler (or storage) is reached.
   */
  private refuseMethod(path: string, query: URLSearchParams): never {
    const segments = pathSegments(path);
    const p = segments === undefined ? path : '/' + segments.join('/');
    if (p === '/' || p === '/version' || p === '/openapi/v2' || p === '/openapi/v3') throw methodNotAllowedRoute();
    const info = requestInfo('GET', path, query);
    if (info.isResourceRequest) {
      const def = this.registry.lookup(info.group, info.version, info.resource);
      if (!def || (info.subresource && !this.subresourceServed(def, info.subresource)) || (!def.namespaced && info.namespace)) throw notFoundPath();
      throw methodNotAllowedRoute();
    }
    if (info.discovery) throw methodNotAllowedRoute();
    throw notFoundPath();
  }

  private nonResource(method: string, path: string, query: URLSearchParams, pretty: boolean, accept: string | null = null): EngineResponse | undefined {
    const segments = pathSegments(path);
    if (segments === undefined) return undefined;
    const p = '/' + segments.join('/');
    // routes/version.go writes the version with WriteRawJSON: indented by two spaces, no trailing newline
    if (p === '/version') {
      return new EngineResponse(goJsonText(JSON.stringify(SERVER_VERSION, null, 2)), { status: 200, headers: { 'Cache-Control': 'no-cache, private', 'Content-Type': 'application/json' } });
    }
    if (p === '/metrics' && (method === 'GET' || method === 'HEAD')) {
      return new EngineResponse(this.metrics.render(), { status: 200, headers: { 'Content-Type': METRICS_CONTENT_TYPE } });
    }
    if (/^\/(healthz|livez|readyz)(\/.*)?$/.test(p)) {
      if (method !== 'GET' && method !== 'HEAD') return undefined;
      if (query.has('verbose')) {
        const name = p.slice(1).split('/')[0];
        return new EngineResponse(`[+]ping ok\n[+]log ok\n[+]etcd ok\n${name} check passed\n`, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
      }
      return new EngineResponse('ok', { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' } });
    }
    if (p === '/openapi/v2') return openAPIV2Response(this.registry.all(), accept, pretty);
    if (p === '/openapi/v3') return respond(200, buildOpenAPIV3Discovery(this.registry.all()), { pretty });
    if (p.startsWith('/openapi/v3/')) {
      const gv = p.slice('/openapi/v3/'.length);
      const doc = buildOpenAPIV3GroupVersion(this.registry.all(), canonicalOpenAPIPath(gv));
      if (!doc) throw notFoundPath();
      return respond(200, doc, { pretty, headers: { 'Cache-Control': 'public, immutable', Etag: `"${gv}"` } });
    }
    if (p === '/') {
      return respond(200, { paths: this.rootPaths() }, { pretty });
    }
    return undefined;
  }

  private rootPaths(): string[] {
    const paths = ['/api', '/api/v1', '/apis', '/healthz', '/livez', '/openapi/v2', '/openapi/v3', '/readyz', '/version'];
    for (const g of this.registry.groups()) {
      paths.push(`/apis/${g.name}`);
      for (const v of g.versions) paths.push(`/apis/${g.name}/${v}`);
    }
    return paths.sort();
  }

  private discovery(d: { apiPrefix: 'api' | 'apis'; group?: string; version?: string }, request: EngineRequest, pretty: boolean): EngineResponse {
    const accept = request.headers.get('Accept');
    if (d.apiPrefix === 'api' && !d.version) {
      const agg = wantsAggregated(accept);
      if (agg) {
        return respond(200, aggregatedDiscovery(this.registry, true, agg), {
          pretty,
          negotiated: { format: 'json', contentType: AGGREGATED_CONTENT_TYPE.replace('v=v2', `v=${agg}`) },
        });
      }
      const host = new URL(request.url).host;
      return respond(200, apiVersions(host), { pretty });
    }
    if (d.apiPrefix === 'api') {
      if (d.version !== 'v1') throw notFoundPath();
      return respond(200, apiResourceList(this.registry, '', 'v1', ''), { pretty });
    }
    if (!d.group) {
      const agg = wantsAggregated(accept);
      if (agg) {
        return respond(200, aggregatedDiscovery(this.registry, false, agg), {
          pretty,
          negotiated: { format: 'json', contentType: AGGREGATED_CONTENT_TYPE.replace('v=v2', `v=${agg}`) },
        });
      }
      return respond(200, apiGroupList(this.registry), { pretty });
    }
    const group = canonicalGroup(d.group);
    if (!d.version) {
      const g = apiGroup(this.registry, group, d.group);
      if (!g) throw notFoundPath();
      return respond(200, g, { pretty });
    }
    if (!this.registry.hasGroupVersion(group, d.version)) throw notFoundPath();
    return respond(200, apiResourceList(this.registry, group, d.version, d.group), { pretty });
  }

  private async resource(info: ResourceRequestInfo, request: EngineRequest, query: URLSearchParams, pretty: boolean, user: UserInfo): Promise<EngineResponse> {
    const virtual = authEndpointKind(info);
    if (virtual) {
      if (info.verb !== 'create') throw methodNotAllowedRoute();
      return handleAuthEndpoint(virtual, info, {
        request, user, authorizer: this.auth.authorizer, state: this.store.state, tokens: this.auth.tokens, env: this.env, pretty,
        reviewToken: (token) => {
          try {
            return authenticate(new Request('http://localhost/', { headers: { Authorization: `Bearer ${token}` } }), this.opts.auth ?? {}, this.auth.tokenChecker);
          } catch {
            return undefined;
          }
        },
      });
    }
    // the core v1 `bindings` collection: create only, served by the pods' binding REST
    if (info.group === '' && info.version === 'v1' && info.resource === 'bindings' && !info.subresource && !info.watchPath) {
      if (!info.namespace || info.rest.length > 0) throw notFoundPath();
      if (info.verb !== 'create' || info.name) throw methodNotAllowedRoute();
      return this.metrics.instrument(routeLabels(this.registry.lookup('', 'v1', 'pods')!, info, request, query), () =>
        handleBinding(this.bindingScope(info, request, query, pretty, user), true).catch((e: unknown) => respondError(e, { pretty })));
    }
    const served = this.registry.lookup(info.group, info.version, info.resource);
    if (!served) throw notFoundPath();
    const def = guardEscalation(served, info, user, this.auth.authorizer);
    if (info.subresource && !this.subresourceServed(def, info.subresource)) throw notFoundPath();
    const connect = info.subresource ? def.connect?.find((c) => c.name === info.subresource) : undefined;
    // no route has segments past the subresource, but the proxies (`.../proxy/some/path`)
    if (info.rest.length > 0 && connect?.name !== 'proxy') throw notFoundPath();
    if (connect) {
      if (!info.name || (def.namespaced && !info.namespace)) throw notFoundPath();
      if (!connect.verbs.includes(info.verb)) throw methodNotAllowedRoute();
      const route = routeLabels(def, info, request, query);
      return this.metrics.instrument(route, () => this.serveConnect(def, info, request, query, pretty, user).catch((e: unknown) => respondError(e, { pretty })));
    }
    if (info.watchPath) {
      // the legacy watch routes: GET of a collection or an object (namespaced objects only inside their namespace)
      if (info.subresource || !def.verbs.includes('watch') || (def.namespaced && info.name && !info.namespace)) throw notFoundPath();
      if (request.method !== 'GET' && request.method !== 'HEAD') throw methodNotAllowedRoute();
    }
    const verb = info.verb;
    if (def.computed && !['get', 'list'].includes(verb)) {
      throw methodNotSupported({ group: def.group, resource: def.plural }, verbAction(verb));
    }
    if (info.subresource) {
      const allowed: Verb[] = info.subresource === 'finalize' ? ['update'] : info.subresource === 'binding' ? ['create'] : ['get', 'update', 'patch'];
      if (!allowed.includes(verb as Verb)) throw methodNotSupported({ group: def.group, resource: `${def.plural}/${info.subresource}` }, verbAction(verb));
    } else if (!def.verbs.includes(verb as Verb)) {
      throw methodNotSupported({ group: def.group, resource: def.plural }, verbAction(verb));
    }
    // no route: POST to a named object, PUT/PATCH to a collection
    if ((verb === 'create' && info.name && !info.subresource) || ((verb === 'update' || verb === 'patch') && !info.name)) {
      throw methodNotAllowedRoute();
    }
    if (!def.namespaced && info.namespace) throw notFoundPath();
    // the route exists: instrument it (metrics); handle() adds the deprecation warning
    const route = routeLabels(def, info, request, query);
    return this.metrics.instrument(route, () => this.serve(def, info, request, query, pretty, user).catch((e: unknown) => respondError(e, { pretty, errorAccept: this.errorAccept(request) })));
  }

  private async serve(def: ResourceDefinition, info: ResourceRequestInfo, request: EngineRequest, query: URLSearchParams, pretty: boolean, user: UserInfo): Promise<EngineResponse> {
    const verb = info.verb;
    // The storage key of a name from the path must stay inside its collection: the real store's key
    // functions refuse `.`, `..` and names holding `/` or `%` before any read or write (Name parameter invalid).
    if (info.name) {
      const msgs = nameIsPathSegment(info.name, false);
      if (msgs.length > 0) throw badRequest(`Name parameter invalid: ${goQuote(info.name)}: ${msgs.join(';')}`);
    }
    const readVerb = verb === 'get' || verb === 'list' || verb === 'watch';
    const negotiated = negotiate(request.headers.get('Accept'), {
      cbor: !!this.featureGates['CBORServingAndStorage'],
      allowAs: readVerb && !info.subresource,
      watch: verb === 'watch',
      protobuf: servesProtobuf(def),
    });
    const scope: Scope = {
      core: this,
      request,
      query,
      info,
      def,
      pretty,
      negotiated,
      userAgent: request.headers.get('User-Agent') ?? '',
      auth: requestAuthorization(user, info, this.auth.authorizer),
    };
    if (def.namespaced && info.namespace === '' && !['list', 'watch', 'deletecollection'].includes(verb)) {
      if (verb === 'create') throw badRequest('the server could not find the requested resource');
    }
    if (info.subresource === 'scale') return handleScale(scope);
    if (info.subresource === 'binding') return handleBinding(scope, false);
    if (def.computed) return handleComputed(scope);
    switch (verb) {
      case 'get':
        return handleGet(scope);
      case 'list':
        return handleList(scope);
      case 'watch':
        return handleWatch(scope);
      case 'create':
        return handleCreate(scope);
      case 'update':
        return handleUpdate(scope);
      case 'patch':
        return handlePatch(scope);
      case 'delete':
        return handleDelete(scope);
      case 'deletecollection':
        return handleDeleteCollection(scope);
    }
  }

  /** The scope of a `bindings` create: the pods' definition, as BindingREST writes pods. */
  private bindingScope(info: ResourceRequestInfo, request: EngineRequest, query: URLSearchParams, pretty: boolean, user: UserInfo): Scope {
    const def = this.registry.lookup('', 'v1', 'pods')!;
    return {
      core: this, request, query, info, def, pretty,
      negotiated: negotiate(request.headers.get('Accept'), { cbor: !!this.featureGates['CBORServingAndStorage'], allowAs: false, watch: false }),
      userAgent: request.headers.get('User-Agent') ?? '',
      auth: requestAuthorization(user, info, this.auth.authorizer),
    };
  }

  /** A subresource answered by endpoints/connect.ts (logs, streams, proxies, eviction). */
  private async serveConnect(def: ResourceDefinition, info: ResourceRequestInfo, request: EngineRequest, query: URLSearchParams, pretty: boolean, user: UserInfo): Promise<EngineResponse> {
    const msgs = nameIsPathSegment(info.name, false);
    if (msgs.length > 0) throw badRequest(`Name parameter invalid: ${goQuote(info.name)}: ${msgs.join(';')}`);
    const negotiated = negotiate(request.headers.get('Accept'), { cbor: !!this.featureGates['CBORServingAndStorage'], allowAs: false, watch: false });
    const scope: Scope = {
      core: this, request, query, info, def, pretty, negotiated,
      userAgent: request.headers.get('User-Agent') ?? '',
      auth: requestAuthorization(user, info, this.auth.authorizer),
    };
    return handleConnect(scope);
  }

  private subresourceServed(def: ResourceDefinition, sub: string): boolean {
    if (def.connect?.some((c) => c.name === sub)) return true;
    if (sub === 'approval') return !!def.subresources.approval;
    if (sub === 'ephemeralcontainers') return !!def.subresources.ephemeralcontainers;
    if (sub === 'resize') return !!def.subresources.resize;
    if (sub === 'status') return !!def.subresources.status;
    if (sub === 'scale') return !!def.subresources.scale;
    if (sub === 'finalize') return !!def.subresources.finalize;
    if (sub === 'binding') return isPods(def);
    return false;
  }
}

function verbAction(verb: string): string {
  switch (verb) {
    case 'create':
      return 'create';
    case 'update':
      return 'update';
    case 'patch':
      return 'patch';
    case 'delete':
      return 'delete';
    case 'deletecollection':
      return 'deletecollection';
    case 'watch':
      return 'watch';
    case 'list':
      return 'list';
    default:
      return 'get';
  }
}

/** Splits a raw request target into its path and query (without `?`); an absolute-form target keeps only its path. */
function splitTarget(target: string): { path: string; query: string } {
  let t = target;
  const abs = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?]*/.exec(t);
  if (abs) t = t.slice(abs[0].length);
  const q = t.indexOf('?');
  const path = q < 0 ? t : t.slice(0, q);
  return { path: path.startsWith('/') ? path : '/' + path, query: q < 0 ? '' : t.slice(q + 1) };
}

/**
 * An absolute URL of plain characters (unreserved, sub-delimiters, `:@/%`, no dot segment, no fragment) split
 * into its path and query as they are: what the URL parser would give for it. Any other URL goes through it.
 */
const PLAIN_URL = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\\\s]*(\/[A-Za-z0-9\-._~!$&()*+,;=:@/%]*)?(\?[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*)?$/;
const DOT_SEGMENT = /\/(\.|%2e)/i;

function parsedUrl(href: string): { path: string; query: string } {
  const m = PLAIN_URL.exec(href);
  if (m && !(m[1] && DOT_SEGMENT.test(m[1]))) return { path: m[1] || '/', query: m[2] ? m[2].slice(1) : '' };
  const url = new URL(href);
  return { path: url.pathname, query: url.search.slice(1) };
}

/** The query as a URL's `search` (`?` and the query, or '' for none) after `url.search = query`. */
function searchOf(query: string): string {
  if (query === '') return '';
  if (/^[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*$/.test(query)) return '?' + query;
  const url = new URL('http://localhost/');
  url.search = query;
  return url.search;
}

function canonicalOpenAPIPath(gv: string): string {
  const m = /^apis\/([^/]+)\/(.+)$/.exec(gv);
  return m ? `apis/${canonicalGroup(m[1])}/${m[2]}` : gv;
}

/** The methods some route serves; any other is refused by refuseMethod. */
const SERVED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

export function methodNotAllowedRoute(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server does not allow this method on the requested resource',
    reason: 'MethodNotAllowed',
    details: {},
    code: 405,
  });
}

export function notFoundPath(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    details: {},
    code: 404,
  });
}

/**
 * /openapi/v2 as kube-openapi's handler serves it: the first Accept clause (by q) naming JSON or one of the
 * two protobuf spellings (wildcards match JSON first) chooses; `Vary: Accept`; nothing acceptable is a bare 406.
 */
function openAPIV2Response(resources: ResourceDefinition[], accept: string | null, pretty: boolean): EngineResponse {
  const offered: Array<{ subtype: string; proto: boolean }> = [
    { subtype: 'json', proto: false },
    ...OPENAPI_V2_PROTO_SUBTYPES.map((subtype) => ({ subtype, proto: true })),
  ];
  const clauses = parseAccept(accept && accept.trim() ? accept : '*/*');
  for (const c of clauses) {
    for (const o of offered) {
      if (c.type !== 'application' && c.type !== '*') continue;
      if (c.subtype !== o.subtype && c.subtype !== '*') continue;
      const doc = buildOpenAPIV2(resources);
      if (!o.proto) return respond(200, doc, { pretty, headers: { Vary: 'Accept' } });
      return new EngineResponse(encodeOpenAPIV2Proto(doc) as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: { 'Content-Type': OPENAPI_V2_PROTO_CONTENT_TYPE, Vary: 'Accept', 'Cache-Control': 'no-cache, private' },
      });
    }
  }
  return new EngineResponse(null, { status: 406, headers: { Vary: 'Accept' } });
}

export function createApiServer(options: ApiServerOptions): ApiServer & { engine: Engine } {
  const engine = new Engine(options.env, options);
  const started = engine.start();
  // once started, requests go straight to the engine (no wait on the settled start per request)
  let running = false;
  started.then(() => void (running = true), () => undefined);
  const serve = (request: EngineRequest, handleOptions?: HandleOptions): Promise<EngineResponse> => {
    if (running) return engine.handle(request, handleOptions);
    return started.then(
      () => engine.handle(request, handleOptions),
      (e: unknown) => respondError(e),
    );
  };
  const handle = (request: Request, handleOptions?: HandleOptions): Promise<Response> => serve(request, handleOptions).then(toFetchResponse);
  const serveEarly = (request: EngineRequest, handleOptions?: HandleOptions): Promise<EngineResponse | undefined> =>
    running ? Promise.resolve(undefined) : engine.serveEarly(request, handleOptions);
  const ready = started.then(() => engine.startControllers(serve));
  ready.catch(() => undefined);
  return {
    engine,
    ready,
    handle,
    serve,
    serveEarly,
    handleEarly: (request, handleOptions) => serveEarly(request, handleOptions).then((r) => r && toFetchResponse(r)),
    close: async () => {
      await ready.catch(() => undefined);
      await engine.close();
    },
  };
}

export type { Engine };
