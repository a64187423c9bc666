// A 100-replica Deployment reaching all-ready in the Node host's engine with the simulated cluster on
// (issue 15's benchmark; reported, not a test): wall time from the create to readyReplicas=100 and the
// storage writes per second the engine sustained meanwhile (every controller, scheduler and kubelet
// write is one committed write). Run: npx tsx bench/workloads.ts
import { createMemoryStorage } from '../src/adapters/memory/memory-storage.js';
import { systemEnv } from '../src/adapters/system-env.js';
import { createApiServer } from '../src/engine/server.js';
import { withWrite } from '../src/engine/storage/testing/forwarding.js';

async function run(replicas: number, containerStartMs: number): Promise<void> {
  const inner = createMemoryStorage();
  let writes = 0;
  const storage = withWrite(inner, async (ops, time) => {
    const r = await inner.write(ops, time);
    if (r.ok) writes += ops.length;
    return r;
  });
  const api = createApiServer({ storage, env: systemEnv(), host: 'node', controllerStartDelayMs: 0, workloads: { containerStartMs } });
  await api.ready;
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await api.handle(new Request(`http://bench${path}`, { method, body: body ? JSON.stringify(body) : undefined, headers: { 'Content-Type': 'application/json', 'User-Agent': 'bench/1' } }));
    return r.json() as Promise<any>;
  };
  // the nodes register first
  for (;;) {
    const nodes = await call('GET', '/api/v1/nodes');
    if ((nodes.items ?? []).length === 3) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const before = writes;
  const t0 = performance.now();
  await call('POST', '/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'bench' },
    spec: { replicas, selector: { matchLabels: { app: 'bench' } }, template: { metadata: { labels: { app: 'bench' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  });
  for (;;) {
    const d = await call('GET', '/apis/apps/v1/namespaces/default/deployments/bench');
    if (d.status?.readyReplicas === replicas && d.status?.availableReplicas === replicas) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - t0;
  const n = writes - before;
  console.log(`${replicas} replicas, container start ${containerStartMs} ms: all ready after ${(ms / 1000).toFixed(2)} s; ${n} writes, ${Math.round(n / (ms / 1000))} writes/s`);
  await api.close();
}

await run(100, 0);
await run(100, 1000);
process.exit(0);
