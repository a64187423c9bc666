// What bench/cold-start.ts needs of the engine, in one entry so that two builds (this tree's and another's)
// can be bundled into /tmp and compared in one process.
export { createApiServer } from '../src/engine/server.js';
export { openIdbStorage } from '../src/adapters/idb/idb-storage.js';
export { systemEnv } from '../src/adapters/system-env.js';
export { ClusterState } from '../src/engine/registry/state.js';
