// What the peer benchmarks need of the engine, in one entry so that one bundle (bench/bundled.ts) holds it
// all (two bundles would each carry their own copy of the CEL value classes).
export { createApiServer } from '../src/engine/server.js';
export { createMemoryStorage } from '../src/adapters/memory/memory-storage.js';
export { systemEnv } from '../src/adapters/system-env.js';
export { createCelEnv, isCompileError, isRuntimeError } from '../src/engine/cel/env.js';
export { schemaToCelType } from '../src/engine/cel/schema-types.js';
