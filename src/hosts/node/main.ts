// `npm run serve -- [options]`: serves the engine on 127.0.0.1 and writes a kubeconfig for kubectl.
// `--help` prints the usage (cli.ts) and exits without starting anything or writing any file.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createApiServer } from '../../engine/server.js';
import { defaultNodes } from '../../engine/controllers/index.js';
import type { Storage } from '../../engine/storage/interface.js';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { openFileStorage } from '../../adapters/file/file-storage.js';
import { systemEnv } from '../../adapters/system-env.js';
import { nodeOutboundHttp } from './outbound-http.js';
import { kubeconfig, startHttpHost } from './http-host.js';
import { USAGE, checkServeSettings, parseArgs, type ServeOptions } from './cli.js';
import { auditOptions } from './audit-log.js';
import { adminStaticToken, takeAuthFlags, withCertificateAuthority, type AuthFlags } from './auth-flags.js';

async function main(): Promise<void> {
  let opts: ServeOptions;
  let flags: AuthFlags;
  try {
    flags = takeAuthFlags(process.argv.slice(2));
    opts = parseArgs(flags.rest);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (opts.help) {
    process.stdout.write(USAGE);
    return;
  }
  // kube-apiserver stops on a refused runtime-config ("Error: ..."), and logs a warning per GA or deprecated gate named
  try {
    for (const w of checkServeSettings(opts)) process.stderr.write(`Warning: ${w}\n`);
  } catch (e) {
    process.stderr.write(`Error: ${(e as Error).message}\n`);
    process.exit(2);
  }
  // over HTTPS the kubeconfig carries a static token of the default administrator
  const admin = adminStaticToken();
  const auth = { bootstrapPolicy: true, ...flags.auth };
  if (flags.tls) auth.staticTokens = [...(auth.staticTokens ?? []), admin];
  const kubeconfigPath = resolve(opts.kubeconfig);
  const storage: Storage = opts.data ? await openFileStorage({ dir: resolve(opts.data) }) : createMemoryStorage();
  const workloads = opts.controllers ? { controllers: opts.controllers, nodes: defaultNodes(opts.nodes ?? 3) } : undefined;
  let audit;
  try {
    audit = auditOptions(opts);
  } catch (e) {
    process.stderr.write(`Error: ${(e as Error).message}\n`);
    process.exit(2);
  }
  const api = createApiServer({ storage, env: { ...systemEnv(), http: nodeOutboundHttp() }, host: 'node', auth, workloads, featureGates: opts.featureGates, runtimeConfig: opts.runtimeConfig, audit });
  await api.ready;
  // APIResponseCompression (beta, on): gzip for clients that ask
  const compression = api.engine.featureGates.APIResponseCompression !== false;
  const host = await startHttpHost(api, { port: opts.port, allowHosts: opts.allowHosts, allowOrigins: opts.allowOrigins, tls: flags.tls, compression });
  mkdirSync(dirname(kubeconfigPath), { recursive: true });
  const config = kubeconfig(host.url, `playground-${opts.cluster}`);
  writeFileSync(kubeconfigPath, flags.tls ? withCertificateAuthority(config, resolve(flags.tls.certFile), admin.token) : config);
  process.stdout.write(
    `Kubernetes API playground (v1.33) serving cluster "${opts.cluster}" at ${host.url}\n` +
      (workloads ? `simulated cluster: ${opts.nodes ?? 3} node(s), controllers ${opts.controllers === 'all' ? 'all' : (opts.controllers as string[]).join(',')}\n` : 'bare API server (no scheduler, nodes or workload controllers; --controllers simulates them)\n') +
      (opts.data ? `data kept in ${resolve(opts.data)}\n` : 'data kept in memory (use --data DIR to keep it across restarts)\n') +
      `kubeconfig written to ${kubeconfigPath}\n\n` +
      `  export KUBECONFIG=${kubeconfigPath}\n  kubectl get namespaces\n\n`,
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await host.close();
    await api.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
