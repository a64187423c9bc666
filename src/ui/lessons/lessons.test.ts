// Each lesson walked to its end against an in-process engine: before a step its check is not done; after
// its actions (manifests loaded, commands run through the terminal's kubectl, scripts run) it is, once the
// controllers have had their time on the fake clock.
import { afterEach, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../../engine/server.js';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { fakeEnv, type FakeEnv } from '../../engine/testing/harness.js';
import { runKubectl } from '../terminal/kubectl.js';
import { LESSONS, owns, type LessonFetch } from './lessons.js';

let engine: ApiServer | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

async function start(): Promise<{ fetch: LessonFetch; env: FakeEnv }> {
  const env = fakeEnv();
  engine = createApiServer({ storage: createMemoryStorage(), env, basePath: '/clusters/lesson', host: 'service-worker' });
  await engine.ready;
  const e = engine;
  const fetch: LessonFetch = (path, init) => e.handle(new Request(`http://playground.test/clusters/lesson${path}`, init));
  await env.advance(2000); // the controllers start
  return { fetch, env };
}

describe('lessons', () => {
  it('every lesson has steps with text, actions, a hint, and unique ids', () => {
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    expect(LESSONS.map((l) => l.id)).toEqual(['ssa', 'managed-fields', 'concurrency', 'watch', 'cel', 'finalizers', 'gc', 'rbac', 'admission']);
    for (const l of LESSONS) {
      expect(l.steps.length).toBeGreaterThan(0);
      for (const s of l.steps) {
        expect(s.text.length && s.actions.length && s.hint.length).toBeTruthy();
      }
    }
  });

  it('owns reads fieldsV1 paths per manager and operation', () => {
    const obj = { metadata: { managedFields: [{ manager: 'a', operation: 'Apply', fieldsV1: { 'f:data': { 'f:x': {} } } }] } };
    expect(owns(obj, 'a', ['f:data', 'f:x'])).toBe(true);
    expect(owns(obj, 'a', ['f:data', 'f:x'], 'Update')).toBe(false);
    expect(owns(obj, 'a', ['f:data', 'f:y'])).toBe(false);
    expect(owns(obj, 'b', ['f:data', 'f:x'])).toBe(false);
  });

  for (const lesson of LESSONS) {
    it(`${lesson.id}: each step's check turns done after its actions, not before`, async () => {
      const { fetch, env } = await start();
      let text = '';
      for (const [i, step] of lesson.steps.entries()) {
        const before = await step.check(fetch);
        expect(before.done, `${lesson.id} step ${i + 1} done before its actions: ${before.detail}`).toBe(false);
        const outputs: string[] = [];
        for (const a of step.actions) {
          if (a.kind === 'manifest') text = a.text;
          else if (a.kind === 'command') {
            const r = await runKubectl(a.line, { fetch, namespace: 'default', editorText: () => text });
            outputs.push(`$ ${a.line}\n${r.stdout}${r.stderr}`);
            if (a.expect) expect(r.stdout + r.stderr).toContain(a.expect);
          } else {
            // a script may wait on the server's timers (a watch's timeoutSeconds): the fake clock moves meanwhile
            let settled = false;
            const run = a.run(fetch).finally(() => (settled = true));
            while (!settled) await env.advance(250);
            const out = await run;
            outputs.push(out);
            if (a.expect) expect(out).toContain(a.expect);
          }
        }
        let after = await step.check(fetch);
        for (let t = 0; t < 10 && !after.done; t++) {
          await env.advance(1000);
          after = await step.check(fetch);
        }
        expect(after.done, `${lesson.id} step ${i + 1} not done: ${after.detail}\n${outputs.join('\n')}`).toBe(true);
      }
    });
  }
});
