// The API client of the engine's controllers: Requests built in-process and answered by the engine's own
// `handle`, so a controller's reads and writes go through the whole pipeline (and show in watches, the
// timeline and managedFields) exactly as a real controller manager's do.

import type { KubeObject } from '../object.js';
import { SERVER_GIT_COMMIT, SERVER_GIT_VERSION } from './version.js';
import { engineRequest, toFetchResponse, type EngineRequest, type EngineResponse } from '../endpoints/wire.js';

/** The engine's own entry (ApiServer.serve): no fetch Request or Response is built for a controller's call. */
export type Handle = (request: EngineRequest) => Promise<EngineResponse>;

/**
 * Who a controller is: a service account of kube-system, as kube-controller-manager runs its controllers
 * (--use-service-account-credentials); without one, kube-controller-manager's own user, which its shared
 * informers list and watch with.
 */
export interface ControllerIdentity {
  /** e.g. "namespace-controller" (the service account name). */
  serviceAccount?: string;
  /**
   * A component with a user of its own instead (kube-scheduler, a node's kubelet): its user name, groups
   * and User-Agent (the field manager of its writes is the part before the first '/').
   */
  user?: { name: string; groups: string[]; userAgent: string };
}

/** kube-scheduler's identity (the bootstrap policy binds system:kube-scheduler to it). */
export const SCHEDULER_IDENTITY: ControllerIdentity = {
  user: { name: 'system:kube-scheduler', groups: [], userAgent: `kube-scheduler/${SERVER_GIT_VERSION} (linux/amd64) kubernetes/${SERVER_GIT_COMMIT.slice(0, 7)}/scheduler` },
};

/** The kubelet of a node: user system:node:<name> in group system:nodes. */
export function kubeletIdentity(node: string): ControllerIdentity {
  return { user: { name: `system:node:${node}`, groups: ['system:nodes'], userAgent: `kubelet/${SERVER_GIT_VERSION} (linux/amd64) kubernetes/${SERVER_GIT_COMMIT.slice(0, 7)}` } };
}

/** kube-controller-manager's own user name (the bootstrap policy binds system:kube-controller-manager to it). */
export const CONTROLLER_MANAGER_USER = 'system:kube-controller-manager';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: any,
  ) {
    super(typeof body?.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

/** The user name a controller authenticates as (its service account). */
export function controllerUser(id: ControllerIdentity): string {
  if (id.user) return id.user.name;
  return id.serviceAccount ? `system:serviceaccount:kube-system:${id.serviceAccount}` : CONTROLLER_MANAGER_USER;
}

/**
 * kube-controller-manager's User-Agent for a controller using its service account's credentials; the
 * field manager of its writes is the part before the first '/', "kube-controller-manager".
 */
export function controllerUserAgent(id: ControllerIdentity): string {
  if (id.user) return id.user.userAgent;
  return `kube-controller-manager/${SERVER_GIT_VERSION} (linux/amd64) kubernetes/${SERVER_GIT_COMMIT.slice(0, 7)}/${id.serviceAccount ? controllerUser(id) : 'shared-informers'}`;
}

export class ApiClient {
  constructor(
    private readonly handle: Handle,
    /** Prefix of every path, e.g. "http://localhost/clusters/default". */
    private readonly base: string,
    readonly identity: ControllerIdentity,
    /** Records the request as built in-process (the engine trusts its identity headers only then). */
    private readonly mark: (request: EngineRequest) => void,
  ) {}

  /** One request; the answer's JSON body is decoded (null when empty). */
  async request<T = any>(method: string, path: string, body?: unknown, contentType = 'application/json', accept = 'application/json'): Promise<ApiResponse<T>> {
    const res = await this.serve(method, path, body, contentType, accept);
    const text = await res.text();
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed as T };
  }

  /** One request, answered as a fetch Response (the informers read watch streams from it). */
  async raw(method: string, path: string, body?: unknown, contentType = 'application/json', accept = 'application/json'): Promise<Response> {
    return toFetchResponse(await this.serve(method, path, body, contentType, accept));
  }

  /**
   * A watch whose events reach `onEvent` as the objects the JSON lines would hold (EngineRequest.watchEvents:
   * no encoding, no bytes through the stream); the answer's body still ends when the watch ends. A watch the
   * engine cannot answer so (another format) answers bytes as usual.
   */
  watch(path: string, accept: string, onEvent: (type: string, object: unknown) => void): Promise<EngineResponse> {
    return this.serve('GET', path, undefined, 'application/json', accept, onEvent);
  }

  private headerPairs(): [string, string][] {
    // the same for every request of this client: made once
    if (this.pairs) return this.pairs;
    const pairs: [string, string][] = [
      ['User-Agent', controllerUserAgent(this.identity)],
      // the front-proxy convention (requestheader authentication) for the caller's identity
      ['X-Remote-User', controllerUser(this.identity)],
    ];
    for (const g of this.identity.user?.groups ?? []) pairs.push(['X-Remote-Group', g]);
    if (this.identity.serviceAccount && !this.identity.user) {
      pairs.push(['X-Remote-Group', 'system:serviceaccounts']);
      pairs.push(['X-Remote-Group', 'system:serviceaccounts:kube-system']);
    }
    pairs.push(['X-Remote-Group', 'system:authenticated']);
    return (this.pairs = pairs);
  }

  private pairs: [string, string][] | undefined;

  private serve(method: string, path: string, body: unknown, contentType: string, accept: string, watchEvents?: (type: string, object: unknown) => void): Promise<EngineResponse> {
    const headers: [string, string][] = [['Accept', accept], ...this.headerPairs()];
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      headers.push(['Content-Type', contentType]);
    }
    const base = engineRequest(method, this.base + path, headers, payload);
    const request: EngineRequest = watchEvents ? { ...base, watchEvents } : base;
    this.mark(request);
    return this.handle(request);
  }

  /** Like request, but a status >= 400 throws an ApiError. */
  async must<T = any>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
    const r = await this.request<T>(method, path, body, contentType);
    if (r.status >= 400) throw new ApiError(r.status, r.body);
    return r.body;
  }

  get(path: string): Promise<ApiResponse<KubeObject>> {
    return this.request('GET', path);
  }
}
