// `npm run serve` as a user runs it: a real process (tsx src/hosts/node/main.ts). --help prints the usage
// and exits 0 without serving or writing a kubeconfig; --data keeps the cluster across a restart.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { USAGE, parseArgs } from './cli.js';
import { rawRequest } from './raw-http.js';

const repo = resolve(import.meta.dirname, '../../..');
const tsx = join(repo, 'node_modules/.bin/tsx');
const main = join(repo, 'src/hosts/node/main.ts');
const work = mkdtempSync(join(tmpdir(), 'serve-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Starts the host; resolves with its port once it prints where it serves. */
function serve(args: string[]): Promise<{ port: number; stop: () => Promise<number | null>; output: () => string }> {
  const child = spawn(tsx, [main, ...args], { cwd: work, env: { ...process.env, HOME: work } });
  let out = '';
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`the host did not start:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      const m = /serving cluster "[^"]*" at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        res({
          port: Number(m[1]),
          output: () => out,
          stop: () =>
            new Promise((done) => {
              child.on('exit', (code) => done(code));
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => rej(new Error(`the host exited (${code}):\n${out}`)));
  });
}

describe('npm run serve', () => {
  it('--help prints the usage with every flag and exits 0, starting nothing and writing no kubeconfig', () => {
    const r = spawnSync(tsx, [main, '--port', '0', '--help'], { cwd: work, encoding: 'utf8', timeout: 50_000, env: { ...process.env, HOME: work, KUBECONFIG: join(work, 'kc') } });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(USAGE);
    expect(r.stderr).toBe('');
    expect(parseArgs(['-h']).help).toBe(true);
    for (const flag of ['--port', '--cluster', '--kubeconfig', '--data', '--allow-host', '--allow-origin', '--help']) expect(USAGE).toContain(flag);
    expect(readdirSync(work)).toEqual([]);
  }, 60_000);

  it('an unknown or incomplete argument is an error (exit 2) with the usage', () => {
    const r = spawnSync(tsx, [main, '--prot', '8080'], { cwd: work, encoding: 'utf8', timeout: 50_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`unknown argument "--prot"\n\n${USAGE}`);
    expect(readdirSync(work)).toEqual([]);
    expect(() => parseArgs(['--data'])).toThrow('--data needs a value');
    expect(() => parseArgs(['--port', 'x'])).toThrow('--port must be a number from 0 to 65535, got "x"');
    expect(() => parseArgs(['--allow-origin', 'evil.example'])).toThrow('--allow-origin must be an origin like http://localhost:5173, got "evil.example"');
  }, 60_000);

  it('parses repeated and = forms', () => {
    expect(parseArgs(['--port=0', '--allow-host', 'a.box', '--allow-host=b.box:1', '--allow-origin', 'http://localhost:5173', '--data', 'd'])).toEqual({
      help: false,
      port: 0,
      cluster: 'default',
      kubeconfig: '.kube-playground/kubeconfig',
      data: 'd',
      allowHosts: ['a.box', 'b.box:1'],
      allowOrigins: ['http://localhost:5173'],
      featureGates: {},
      runtimeConfig: {},
    });
  });

  it('--controllers alone is all of them, or a comma list; --nodes N needs it', () => {
    expect(parseArgs(['--controllers']).controllers).toBe('all');
    expect(parseArgs(['--controllers', '--port', '0'])).toMatchObject({ controllers: 'all', port: 0 });
    expect(parseArgs(['--controllers=deployment,replicaset,scheduler,nodes', '--nodes', '5'])).toMatchObject({ controllers: ['deployment', 'replicaset', 'scheduler', 'nodes'], nodes: 5 });
    expect(parseArgs([]).controllers).toBeUndefined();
    expect(() => parseArgs(['--controllers=deploy'])).toThrow('unknown controller "deploy" (known: deployment, replicaset, statefulset, daemonset, job, cronjob, endpoints, endpointslice, scheduler, nodes, node-lifecycle, podgc)');
    expect(() => parseArgs(['--nodes', '2'])).toThrow('--nodes needs --controllers');
    expect(() => parseArgs(['--controllers', '--nodes', '0'])).toThrow('--nodes must be a number from 1 to 1000, got "0"');
    for (const flag of ['--controllers', '--nodes']) expect(USAGE).toContain(flag);
  });

  it('--data DIR keeps the cluster across a restart', async () => {
    const data = join(work, 'data');
    const kc = join(work, 'kc', 'config');
    let host = await serve(['--port', '0', '--data', data, '--kubeconfig', kc]);
    expect(existsSync(kc)).toBe(true);
    const created = await rawRequest(host.port, 'POST', '/api/v1/namespaces/default/configmaps', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { k: 'v' } }),
    });
    expect(created.status).toBe(201);
    const rv = (created.json() as { metadata: { resourceVersion: string; uid: string } }).metadata;
    expect(await host.stop()).toBe(0);

    host = await serve(['--port', '0', '--data', data, '--kubeconfig', kc]);
    const got = await rawRequest(host.port, 'GET', '/api/v1/namespaces/default/configmaps/kept');
    expect(got.status).toBe(200);
    expect((got.json() as { metadata: { resourceVersion: string; uid: string } }).metadata).toMatchObject({ resourceVersion: rv.resourceVersion, uid: rv.uid });
    const list = await rawRequest(host.port, 'GET', '/api/v1/namespaces');
    expect((list.json() as { items: unknown[] }).items).toHaveLength(4); // seeded once, not again
    expect(await host.stop()).toBe(0);
  }, 60_000);
});
