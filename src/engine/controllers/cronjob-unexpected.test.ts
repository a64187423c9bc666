// The CronJob controller's UnexpectedJob event: an unfinished Job the CronJob controls but does not list in
// status.active (it did not create it, or forgot it) is reported on every sync; its own jobs and finished
// ones are not.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

const CJ = '/apis/batch/v1/namespaces/default/cronjobs';
const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const TEMPLATE = { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } };

async function start(): Promise<TestClient> {
  // the CronJob controller alone: no job controller finishes the jobs
  const c = await testClient(createMemoryStorage(), { workloads: { controllers: ['cronjob'] } });
  await c.settle();
  return c;
}
async function run(c: TestClient, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    await c.env.advance(1000);
    await c.settle();
  }
}
const eventsOf = async (c: TestClient, name: string) =>
  ((await c.req('GET', '/api/v1/namespaces/default/events')).body.items as any[])
    .filter((e) => e.involvedObject.name === name)
    .map((e) => ({ type: e.type, reason: e.reason, message: e.message, source: e.source?.component }));
const ownedBy = (cj: any) => [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cj.metadata.name, uid: cj.metadata.uid, controller: true }];

describe('CronJob UnexpectedJob', () => {
  it('a job the CronJob controls but did not create: Warning UnexpectedJob, and it is not adopted into status.active', async () => {
    const c = await start();
    const cj = (await c.req('POST', CJ, { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly' }, spec: { schedule: '0 3 * * *', jobTemplate: TEMPLATE } })).body;
    expect((await c.req('POST', JOBS, { metadata: { name: 'manual', ownerReferences: ownedBy(cj) }, ...TEMPLATE })).status).toBe(201);
    await run(c, 2000);
    expect(await eventsOf(c, 'nightly')).toEqual([
      { type: 'Warning', reason: 'UnexpectedJob', message: 'Saw a job that the controller did not create or forgot: manual', source: 'cronjob-controller' },
    ]);
    expect((await c.req('GET', `${CJ}/nightly`)).body.status.active).toBeUndefined();
  });

  it('a finished job it does not list, and the jobs it creates itself, raise no UnexpectedJob', async () => {
    const c = await start();
    const cj = (await c.req('POST', CJ, { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'every' }, spec: { schedule: '* * * * *', jobTemplate: TEMPLATE } })).body;
    // finished first, then put under the CronJob
    await c.req('POST', JOBS, { metadata: { name: 'old' }, ...TEMPLATE });
    const old = (await c.req('GET', `${JOBS}/old`)).body;
    const at = '2025-01-01T00:00:05Z';
    const done = await c.req('PUT', `${JOBS}/old/status`, {
      ...old,
      status: {
        startTime: at, completionTime: at, succeeded: 1,
        conditions: [
          { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastProbeTime: at, lastTransitionTime: at },
          { type: 'Complete', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastProbeTime: at, lastTransitionTime: at },
        ],
      },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const adopt = await c.req('PATCH', `${JOBS}/old`, { metadata: { ownerReferences: ownedBy(cj) } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(adopt.status, JSON.stringify(adopt.body)).toBe(200);
    await run(c, 125_000);
    const reasons = (await eventsOf(c, 'every')).map((e) => e.reason);
    expect(reasons.filter((r) => r === 'SuccessfulCreate').length).toBe(2);
    expect(reasons).not.toContain('UnexpectedJob');
    expect((await c.req('GET', `${CJ}/every`)).body.status.active.length).toBe(2);
  }, 30_000);
});
