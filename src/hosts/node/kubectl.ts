// Test support for the real-client suites: find kubectl 1.33, start the Node host on a free port with a
// kubeconfig in a temp dir, and run kubectl against it.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { systemEnv } from '../../adapters/system-env.js';
import { nodeOutboundHttp } from './outbound-http.js';
import { createApiServer, type ApiServerOptions } from '../../engine/server.js';
import { kubeconfig, startHttpHost, type HttpHost } from './http-host.js';
import { adminStaticToken, withCertificateAuthority } from './auth-flags.js';

export function findKubectl(): { path?: string; why: string } {
  const candidates = [process.env.KUBECTL, '/usr/lib/google-cloud-sdk/bin/kubectl.1.33', 'kubectl'].filter(Boolean) as string[];
  for (const c of candidates) {
    if (c.includes('/') && !existsSync(c)) continue;
    const r = spawnSync(c, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
    if (r.status !== 0) continue;
    try {
      const v = JSON.parse(r.stdout).clientVersion;
      if (v.major === '1' && v.minor === '33') return { path: c, why: `kubectl ${v.gitVersion}` };
    } catch {
      // not kubectl
    }
  }
  return { why: 'kubectl 1.33 not found (set KUBECTL, or install it at /usr/lib/google-cloud-sdk/bin/kubectl.1.33)' };
}

export interface KubectlEnv {
  host: HttpHost;
  dir: string;
  kubeconfigPath: string;
  kubectl(args: string[], opts?: { input?: string; allowFail?: boolean }): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Starts a long-running kubectl (e.g. get -w); returns its growing output and a stop function. */
  spawnKubectl(args: string[]): { output: () => string; stop: () => Promise<void> };
  close(): Promise<void>;
}

export async function startKubectlEnv(
  kubectlPath: string,
  apiOptions: Partial<ApiServerOptions> = {},
  hostOptions: { tls?: { cert: string; key: string; certFile: string } } = {},
): Promise<KubectlEnv> {
  // over HTTPS the kubeconfig carries a static token of the default administrator
  const admin = adminStaticToken();
  if (hostOptions.tls) apiOptions = { ...apiOptions, auth: { ...apiOptions.auth, staticTokens: [...(apiOptions.auth?.staticTokens ?? []), admin] } };
  const api = createApiServer({ storage: createMemoryStorage(), env: { ...systemEnv(), http: nodeOutboundHttp() }, host: 'node', ...apiOptions });
  await api.ready;
  const host = await startHttpHost(api, { port: 0, tls: hostOptions.tls });
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-suite-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const config = kubeconfig(host.url);
  writeFileSync(kubeconfigPath, hostOptions.tls ? withCertificateAuthority(config, hostOptions.tls.certFile, admin.token) : config);
  const env = { ...process.env, KUBECONFIG: kubeconfigPath, HOME: dir, KUBECACHEDIR: join(dir, 'cache') };
  return {
    host,
    dir,
    kubeconfigPath,
    kubectl(args, opts = {}) {
      return new Promise((resolve, reject) => {
        const child = execFile(kubectlPath, args, { env, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (err, stdout, stderr) => {
          const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
          if (code !== 0 && !opts.allowFail) {
            reject(new Error(`kubectl ${args.join(' ')} failed (${code}):\n${stderr}\n${stdout}`));
            return;
          }
          resolve({ code, stdout, stderr });
        });
        if (opts.input !== undefined) {
          child.stdin!.write(opts.input);
          child.stdin!.end();
        }
      });
    },
    spawnKubectl(args) {
      const child = spawn(kubectlPath, args, { env });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      return {
        output: () => out,
        stop: () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.on('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    },
    async close() {
      await host.close();
      await api.close();
    },
  };
}
