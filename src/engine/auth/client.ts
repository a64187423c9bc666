// A minimal in-process API client for the engine's own post-start work and controllers: requests go
// through the engine's whole pipeline (authorization, admission, storage, watch) under a given identity,
// so their writes show in managedFields and watches exactly as a real client's would.

import type { UserInfo } from './user.js';
import { engineRequest, type EngineRequest, type EngineResponse } from '../endpoints/wire.js';

/** The engine's own entry under a given identity (no fetch Request or Response is built). */
export type HandleAs = (request: EngineRequest, user: UserInfo) => Promise<EngineResponse>;

export interface ClientAnswer {
  status: number;
  body: unknown;
}

export class InternalClient {
  constructor(
    private readonly handleAs: HandleAs,
    private readonly user: UserInfo,
    private readonly userAgent: string,
    private readonly basePath = '',
  ) {}

  async call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<ClientAnswer> {
    const headers: [string, string][] = [['Content-Type', contentType], ['Accept', 'application/json'], ['User-Agent', this.userAgent]];
    const request = engineRequest(method, `http://engine.internal${this.basePath}${path}`, headers, body === undefined ? undefined : JSON.stringify(body));
    const res = await this.handleAs(request, this.user);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed };
  }
}
