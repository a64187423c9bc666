// `npm run serve -- [--port N] [--cluster NAME] [--kubeconfig PATH] [--data FILE]`: serves the engine on
// 127.0.0.1 and writes a kubeconfig for kubectl.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createApiServer } from '../../engine/server.js';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { systemEnv } from '../../adapters/system-env.js';
import { kubeconfig, startHttpHost } from './http-host.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}

async function main(): Promise<void> {
  const port = Number(arg('port') ?? 8080);
  const cluster = arg('cluster') ?? 'default';
  const kubeconfigPath = resolve(arg('kubeconfig') ?? '.kube-playground/kubeconfig');
  const api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'node' });
  await api.ready;
  const host = await startHttpHost(api, { port });
  mkdirSync(dirname(kubeconfigPath), { recursive: true });
  writeFileSync(kubeconfigPath, kubeconfig(host.url, `playground-${cluster}`));
  process.stdout.write(
    `Kubernetes API playground (v1.33) serving cluster "${cluster}" at ${host.url}\n` +
      `kubeconfig written to ${kubeconfigPath}\n\n` +
      `  export KUBECONFIG=${kubeconfigPath}\n  kubectl get namespaces\n\n`,
  );
  const stop = async () => {
    await host.close();
    await api.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
