// What the peer benchmarks need of the engine, in one entry so that one bundle (bench/bundled.ts) holds it
// all (two bundles would each carry their own copy of the CEL value classes).
export { createApiServer } from '../src/engine/server.js';
export { createMemoryStorage } from '../src/adapters/memory/memory-storage.js';
export { systemEnv } from '../src/adapters/system-env.js';
export { createCelEnv, isCompileError, isRuntimeError } from '../src/engine/cel/env.js';
export { schemaToCelType } from '../src/engine/cel/schema-types.js';
export { engineRequest, toFetchResponse } from '../src/engine/server.js';
export type { EngineRequest, EngineResponse } from '../src/engine/server.js';

import { engineRequest as makeRequest, type EngineRequest, type EngineResponse } from '../src/engine/server.js';

/**
 * A request through the engine's own entry (serve): method, path and the body as JSON text in, the response
 * body read as text (serialization counted both ways, no fetch Request or Response); a status of 300 or
 * more throws. The same contract as textCaller (bench/bundled.ts), which goes through handle().
 */
export function serveCaller(api: { serve(r: EngineRequest): Promise<EngineResponse> }) {
  // named, so that bench/steps.ts charges its own time (the body's JSON.stringify, the caller's awaits) to the harness
  const benchServeCall = async (method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<string> => {
    const r = await api.serve(makeRequest(method, 'http://bench' + path, [['Content-Type', contentType], ['User-Agent', 'bench/1']], body === undefined ? undefined : JSON.stringify(body)));
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 200)}`);
    return text;
  };
  return benchServeCall;
}
