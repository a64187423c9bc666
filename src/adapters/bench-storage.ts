// Micro-benchmark of a Storage backend (run by hosts and `npm run bench`, never by the engine): the
// latency of single-object creates and gets, and the time to list 10,000 objects of ~2 KiB.

import type { KubeObject } from '../engine/object.js';
import type { Storage } from '../engine/storage/interface.js';

export interface StorageBenchResult {
  /** Median latency of one `write` holding a single create (expectRevision 0) of a ~2 KiB object. */
  createP50Ms: number;
  /** Median latency of one `get` of an existing key. */
  getP50Ms: number;
  /** Median of 3 `list`s of a prefix holding exactly 10,000 objects; only when n >= 10,000. */
  list10kMs?: number;
}

const LIST_SIZE = 10_000;

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A realistic Pod of about 2 KiB. */
export function benchObject(namespace: string, i: number): KubeObject {
  const name = `bench-${String(i).padStart(6, '0')}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid: `6f1c2a3b-0000-4000-8000-${String(i).padStart(12, '0')}`,
      creationTimestamp: '2025-01-01T00:00:00Z',
      labels: { app: 'bench', 'pod-template-hash': '7d9f8c6b5', index: String(i) },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2025-01-01T00:00:00Z' },
      managedFields: [
        {
          manager: 'kubectl-client-side-apply',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2025-01-01T00:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': {} } },
        },
      ],
    },
    spec: {
      containers: [
        {
          name: 'main',
          image: 'registry.k8s.io/nginx-slim:0.27',
          args: ['--port=8080', '--verbose', `--id=${i}`],
          env: Array.from({ length: 8 }, (_, j) => ({ name: `ENV_VAR_${j}`, value: `value-${j}-${'x'.repeat(40)}` })),
          ports: [{ containerPort: 8080, protocol: 'TCP', name: 'http' }],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
          volumeMounts: [{ name: 'config', mountPath: '/etc/config', readOnly: true }],
        },
      ],
      volumes: [{ name: 'config', configMap: { name: 'bench-config' } }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      nodeName: 'node-1',
    },
    status: {
      phase: 'Running',
      podIP: `10.0.${(i >> 8) & 255}.${i & 255}`,
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' },
      ],
    },
  };
}

/**
 * Creates `n` ~2 KiB objects one write at a time in a fresh store from `make()`, gets each, and (when
 * n >= 10,000) lists a prefix holding exactly 10,000 of them. Closes the store afterwards.
 */
export async function benchStorage(make: () => Promise<Storage>, n: number): Promise<StorageBenchResult> {
  const s = await make();
  try {
    const keyOf = (i: number) => {
      const ns = i < LIST_SIZE ? 'bench' : 'bench-extra';
      return { ns, key: `/core/pods/${ns}/bench-${String(i).padStart(6, '0')}` };
    };
    const creates: number[] = [];
    for (let i = 0; i < n; i++) {
      const { ns, key } = keyOf(i);
      const object = benchObject(ns, i); // built outside the timed section
      const t0 = performance.now();
      const r = await s.write([{ kind: 'put', key, object, expectRevision: 0 }], 1_700_000_000_000 + i);
      creates.push(performance.now() - t0);
      if (!r.ok) throw new Error(`benchStorage: create of ${key} failed: ${JSON.stringify(r)}`);
    }
    const gets: number[] = [];
    for (let i = 0; i < n; i++) {
      const { key } = keyOf(i);
      const t0 = performance.now();
      const got = await s.get(key);
      gets.push(performance.now() - t0);
      if (got === undefined) throw new Error(`benchStorage: get of ${key} found nothing`);
    }
    const result: StorageBenchResult = { createP50Ms: median(creates), getP50Ms: median(gets) };
    if (n >= LIST_SIZE) {
      const lists: number[] = [];
      for (let run = 0; run < 3; run++) {
        const t0 = performance.now();
        const items = await s.list('/core/pods/bench/');
        lists.push(performance.now() - t0);
        if (items.length !== LIST_SIZE) throw new Error(`benchStorage: listed ${items.length} objects, expected ${LIST_SIZE}`);
      }
      result.list10kMs = median(lists);
    }
    return result;
  } finally {
    await s.close();
  }
}
