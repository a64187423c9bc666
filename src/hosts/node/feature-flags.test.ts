// --feature-gates and --runtime-config of the Node host (issue 12 item 6), parsed as kube-apiserver parses
// them: every refusal with its message (pflag's `invalid argument ... for "--feature-gates" flag:` wrapping
// for the gate flag, kube-apiserver's own messages for runtime-config), warnings for GA and deprecated gates,
// and the process exiting with them.
import { spawn, spawnSync } from 'node:child_process';
import { get } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE, checkServeSettings, parseArgs } from './cli.js';

const tsx = resolve('node_modules/.bin/tsx');
const main = resolve('src/hosts/node/main.ts');

describe('--feature-gates', () => {
  it('parses A=true,B=false, repeated flags merge (later values win)', () => {
    const o = parseArgs(['--feature-gates=AllowUnsafeMalformedObjectDeletion=true,CBORServingAndStorage=true', '--feature-gates', 'CBORServingAndStorage=false,WatchList=t']);
    expect(o.featureGates).toEqual({ AllowUnsafeMalformedObjectDeletion: true, CBORServingAndStorage: false, WatchList: true });
  });

  it('every refusal, with the real message', () => {
    const cases: [string, string][] = [
      ['NoSuchGate=true', 'unrecognized feature gate: NoSuchGate'],
      ['SidecarContainers=false', 'cannot set feature gate SidecarContainers to false, feature is locked to true'],
      ['WatchFromStorageWithoutResourceVersion=true', 'cannot set feature gate WatchFromStorageWithoutResourceVersion to true, feature is locked to false'],
      ['CBORServingAndStorage', 'missing bool value for CBORServingAndStorage'],
      ['CBORServingAndStorage=on', 'invalid value of CBORServingAndStorage=on, err: strconv.ParseBool: parsing "on": invalid syntax'],
      ['SidecarContainers=false,JobSuccessPolicy=false', '[cannot set feature gate SidecarContainers to false, feature is locked to true, cannot set feature gate JobSuccessPolicy to false, feature is locked to true]'],
    ];
    for (const [value, message] of cases) {
      expect(() => parseArgs([`--feature-gates=${value}`])).toThrow(`invalid argument ${JSON.stringify(value)} for "--feature-gates" flag: ${message}`);
    }
    expect(() => parseArgs(['--feature-gates'])).toThrow('--feature-gates needs a value');
  });

  it('naming a GA or deprecated gate warns', () => {
    const o = parseArgs(['--feature-gates=SidecarContainers=true,KMSv1=false,CBORServingAndStorage=true']);
    expect(checkServeSettings(o)).toEqual([
      'Setting GA feature gate SidecarContainers=true. It will be removed in a future release.',
      'Setting deprecated feature gate KMSv1=false. It will be removed in a future release.',
    ]);
  });
});

describe('--runtime-config', () => {
  it('parses key[=value] pairs; repeated flags merge', () => {
    const o = parseArgs(['--runtime-config=batch/v1=false,storage.k8s.io/v1alpha1', '--runtime-config', 'apps/v1/deployments=false']);
    expect(o.runtimeConfig).toEqual({ 'batch/v1': 'false', 'storage.k8s.io/v1alpha1': '', 'apps/v1/deployments': 'false' });
    expect(checkServeSettings(o)).toEqual([]);
  });

  it('every refusal, with the real message', () => {
    const cases: [string, string][] = [
      ['api/all=false', 'invalid key with only api/all=false'],
      ['batch=false', 'runtime-config invalid key batch'],
      ['a/b/c/d=true', 'runtime-config invalid key a/b/c/d'],
      ['example.com/v1=true', 'unknown api groups example.com'],
      ['batch/v9=true', 'group version batch/v9 that has not been registered'],
      ['api/all=maybe,v1=true', 'invalid value api/all=maybe'],
      ['batch/v1=nope', 'invalid value of batch/v1: nope, err: strconv.ParseBool: parsing "nope": invalid syntax'],
      ['apps/v1/Deployments=false', 'invalid key apps/v1/Deployments: group/version/resource and resource is always lowercase plural, not "Deployments"'],
    ];
    for (const [value, message] of cases) {
      expect(() => checkServeSettings(parseArgs([`--runtime-config=${value}`]))).toThrow(message);
    }
  });
});

describe('npm run serve with the flags', () => {
  const work = mkdtempSync(join(tmpdir(), 'serve-flags-'));
  const run = (args: string[]) => spawnSync(tsx, [main, '--port', '0', '--kubeconfig', join(work, 'kc'), ...args], { cwd: work, encoding: 'utf8', timeout: 50_000, env: { ...process.env, HOME: work } });

  it('an unknown gate stops the server (exit 2) with the message and the usage; --help names both flags', () => {
    const r = run(['--feature-gates=Bogus=true']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`invalid argument "Bogus=true" for "--feature-gates" flag: unrecognized feature gate: Bogus\n\n${USAGE}`);
    expect(USAGE).toContain('--feature-gates');
    expect(USAGE).toContain('--runtime-config');
  }, 60_000);

  it('a refused runtime-config stops it too (exit 2, "Error: ...")', () => {
    const r = run(['--runtime-config=example.com/v1=true']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('Error: unknown api groups example.com\n');
  }, 60_000);
});

describe('a gate that changes the Node host: APIResponseCompression', () => {
  const work = mkdtempSync(join(tmpdir(), 'serve-gzip-'));
  /** Starts the host, fetches /openapi/v2 (large) asking for gzip, stops it; the Content-Encoding answered. */
  async function encodingWith(args: string[]): Promise<{ encoding: string | undefined; stderr: string }> {
    const child = spawn(tsx, [main, '--port', '0', '--kubeconfig', join(work, 'kc'), ...args], { cwd: work, env: { ...process.env, HOME: work } });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d));
    const port = await new Promise<number>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`the host did not start: ${out}${err}`)), 40_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d;
        const m = /at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          res(Number(m[1]));
        }
      });
    });
    const encoding = await new Promise<string | undefined>((res, rej) => {
      get({ host: '127.0.0.1', port, path: '/openapi/v2', headers: { 'Accept-Encoding': 'gzip' } }, (r) => {
        r.resume();
        r.on('end', () => res(r.headers['content-encoding']));
      }).on('error', rej);
    });
    await new Promise((done) => {
      child.on('exit', done);
      child.kill('SIGTERM');
    });
    return { encoding, stderr: err };
  }

  it('on by default (gzip for clients that ask); --feature-gates=APIResponseCompression=false turns it off', async () => {
    expect((await encodingWith([])).encoding).toBe('gzip');
    const off = await encodingWith(['--feature-gates=APIResponseCompression=false']);
    expect(off.encoding).toBeUndefined();
  }, 120_000);

  it('naming a GA gate starts the server with the warning on stderr', async () => {
    const r = await encodingWith(['--feature-gates=SidecarContainers=true']);
    expect(r.stderr).toContain('Warning: Setting GA feature gate SidecarContainers=true. It will be removed in a future release.\n');
  }, 120_000);
});
