// createApiServer: the whole HTTP API as a function of its storage (DESIGN.md 1).
import type { Env } from './env.js';
import type { Storage } from './storage/interface.js';

export interface ApiServerOptions {
  storage: Storage;
  env: Env;
  /** Path prefix the host serves the API under, stripped before routing (e.g. "/clusters/default"). */
  basePath?: string;
  /** Event-history retention in ms (default 5 minutes). */
  historyWindowMs?: number;
  /** Feature gates, e.g. { CBORServingAndStorage: true }. */
  featureGates?: Record<string, boolean>;
  /** Which host runs the engine; gzip is only offered on 'node' (DESIGN.md 2). */
  host?: 'node' | 'service-worker' | 'page' | 'test';
}

export interface ApiServer {
  handle(request: Request): Promise<Response>;
  /** Resolves when the engine has loaded its state from storage and seeded a new cluster. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export { createApiServer } from './endpoints/api-server.js';
