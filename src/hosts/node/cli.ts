// The Node host's command line: usage text and argument parsing (main.ts runs it).

import { WORKLOAD_CONTROLLER_NAMES, type WorkloadControllerName } from '../../engine/controllers/index.js';
import { aggregateMessage, parseFeatureGates, resolveFeatureGates } from '../../engine/features/gates.js';
import { parseRuntimeConfig, resolveRuntimeConfig } from '../../engine/features/runtime-config.js';
import { flagError } from '../../engine/features/settings.js';

export const USAGE = `Usage: npm run serve -- [options]

Serves a Kubernetes v1.33 API server (the playground's engine) on 127.0.0.1 for kubectl and other
clients, and writes a kubeconfig that points at it. This cluster is separate from the browser
playground's clusters (those live in the browser's IndexedDB).

Options:
  --port N             port to listen on (default 8080; 0 picks a free one)
  --cluster NAME       cluster name shown in the kubeconfig context (default "default")
  --kubeconfig PATH    where to write the kubeconfig (default .kube-playground/kubeconfig)
  --data DIR           keep the cluster in DIR across restarts (a journal of committed writes,
                       fsynced one transaction at a time, plus periodic snapshots); without it the
                       cluster lives in memory and is gone when the server stops
  --allow-host NAME    also answer requests whose Host header is NAME (or NAME:PORT); by default only
                       loopback names are answered (localhost, 127.0.0.1, [::1]), which keeps web pages
                       that rebind their DNS name to 127.0.0.1 out; repeatable
  --allow-origin URL   also accept writes from web pages of this origin (e.g. http://localhost:5173)
                       and answer them with CORS headers, as kube-apiserver's --cors-allowed-origins
                       does; by default a write carrying an Origin header must come from this server's
                       own origin (http://<the Host it was addressed by>); clients that send no Origin
                       (kubectl, curl, client libraries) are not affected; repeatable
  --anonymous          requests without credentials act as system:anonymous (group
                       system:unauthenticated), as kube-apiserver with anonymous authentication; by
                       default they act as the cluster administrator (kubernetes-admin, system:masters)
  --token-file FILE    static bearer tokens, one per line: token,user,uid,"group1,group2"
  --tls-cert-file FILE, --tls-private-key-file FILE
                       serve HTTPS (kubectl sends bearer tokens only over TLS); the kubeconfig then
                       trusts the certificate and carries a token of the cluster administrator
  --controllers[=LIST] simulate the cluster around the API: workload controllers (deployment,
                       replicaset, statefulset, daemonset, job, cronjob, endpoints, endpointslice), a
                       scheduler and simulated nodes, so that
                       pods get scheduled and run and rollouts finish; alone it runs them all, or give a
                       comma-separated list of those names plus scheduler, nodes, node-lifecycle
                       and podgc;
                       without it the server is a bare API server (the controllers the API itself needs
                       always run: namespaces, garbage collection, service accounts, role aggregation)
  --nodes N            how many simulated nodes (default 3; with --controllers)
  --feature-gates A=true,B=false
                       feature gates, as kube-apiserver's flag (repeatable): alpha gates are off by
                       default, beta gates mostly on, GA gates locked on (naming one warns, turning it
                       off fails); unknown gates stop the server, e.g.
                       --feature-gates=AllowUnsafeMalformedObjectDeletion=true,CBORServingAndStorage=true
  --runtime-config KEY[=VALUE],...
                       turn built-in API groups, versions and resources on or off, as kube-apiserver's
                       flag (repeatable): api/all, api/ga, api/beta, api/alpha, <group>/<version>,
                       <group>/<version>/<resource>; v1 or api/v1 for the core group; a missing value
                       means true; e.g. --runtime-config=batch/v1=false,apps/v1/deployments=false
  --audit-policy-file FILE
                       the audit policy (an audit.k8s.io/v1 Policy, YAML or JSON), as kube-apiserver's
                       flag: the first rule matching a request sets its level (None, Metadata, Request,
                       RequestResponse); an invalid policy stops the server; without it no events are
                       written
  --audit-log-path PATH
                       write audit events to PATH, one JSON audit.k8s.io/v1 Event per line (appended);
                       "-" writes them to standard output
  -h, --help           print this help and exit

Then:
  export KUBECONFIG=$PWD/.kube-playground/kubeconfig
  kubectl get namespaces
`;

export interface ServeOptions {
  help: boolean;
  port: number;
  cluster: string;
  kubeconfig: string;
  data?: string;
  allowHosts: string[];
  allowOrigins: string[];
  /** The simulated cluster's controllers ('all' or names), when --controllers is given. */
  controllers?: 'all' | WorkloadControllerName[];
  nodes?: number;
  /** --feature-gates, merged over repeats (checked: see checkServeSettings). */
  featureGates: Record<string, boolean>;
  /** --runtime-config, merged over repeats. */
  runtimeConfig: Record<string, string>;
  /** --audit-log-path ("-": standard output). */
  auditLogPath?: string;
  /** --audit-policy-file. */
  auditPolicyFile?: string;
}

const VALUE_FLAGS = new Set(['port', 'cluster', 'kubeconfig', 'data', 'allow-host', 'allow-origin', 'nodes', 'feature-gates', 'runtime-config', 'audit-log-path', 'audit-policy-file']);

/**
 * What kube-apiserver checks after parsing its flags: the runtime-config (throws its message) and the gates'
 * warnings (GA or deprecated gates named), returned to be printed.
 */
export function checkServeSettings(opts: Pick<ServeOptions, 'featureGates' | 'runtimeConfig'>): string[] {
  resolveRuntimeConfig(opts.runtimeConfig);
  return resolveFeatureGates(opts.featureGates).warnings;
}

/** Parses the command line; throws an Error whose message says what is wrong. */
export function parseArgs(argv: readonly string[]): ServeOptions {
  const opts: ServeOptions = { help: false, port: 8080, cluster: 'default', kubeconfig: '.kube-playground/kubeconfig', allowHosts: [], allowOrigins: [], featureGates: {}, runtimeConfig: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') {
      opts.help = true;
      continue;
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(a);
    if (m && m[1] === 'controllers') {
      opts.controllers = m[2] === undefined ? 'all' : parseControllers(m[2]);
      continue;
    }
    if (!m || !VALUE_FLAGS.has(m[1])) throw new Error(`unknown argument ${JSON.stringify(a)}`);
    const name = m[1];
    let value = m[2];
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new Error(`--${name} needs a value`);
      value = argv[++i];
    }
    switch (name) {
      case 'port': {
        const n = Number(value);
        if (!/^\d+$/.test(value) || n > 65535) throw new Error(`--port must be a number from 0 to 65535, got ${JSON.stringify(value)}`);
        opts.port = n;
        break;
      }
      case 'cluster':
        opts.cluster = value;
        break;
      case 'kubeconfig':
        opts.kubeconfig = value;
        break;
      case 'data':
        opts.data = value;
        break;
      case 'nodes': {
        const n = Number(value);
        if (!/^\d+$/.test(value) || n < 1 || n > 1000) throw new Error(`--nodes must be a number from 1 to 1000, got ${JSON.stringify(value)}`);
        opts.nodes = n;
        break;
      }
      case 'allow-host':
        opts.allowHosts.push(value);
        break;
      case 'feature-gates':
        // featureGate.Set: parse, then SetFromMap refuses unknown and locked gates at once (pflag wraps the error)
        try {
          opts.featureGates = parseFeatureGates(value, opts.featureGates);
          const errors = resolveFeatureGates(opts.featureGates).errors;
          if (errors.length) throw new Error(aggregateMessage(errors));
        } catch (e) {
          throw new Error(flagError('feature-gates', value, (e as Error).message));
        }
        break;
      case 'runtime-config':
        opts.runtimeConfig = parseRuntimeConfig(value, opts.runtimeConfig);
        break;
      case 'audit-log-path':
        opts.auditLogPath = value;
        break;
      case 'audit-policy-file':
        opts.auditPolicyFile = value;
        break;
      case 'allow-origin':
        if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]+\/?$/i.test(value)) throw new Error(`--allow-origin must be an origin like http://localhost:5173, got ${JSON.stringify(value)}`);
        opts.allowOrigins.push(value);
        break;
    }
  }
  if (opts.nodes !== undefined && opts.controllers === undefined) throw new Error('--nodes needs --controllers');
  return opts;
}

/** --controllers=a,b: the names of the simulated cluster's controllers. */
function parseControllers(list: string): 'all' | WorkloadControllerName[] {
  const names = list.split(',').map((x) => x.trim()).filter(Boolean);
  if (names.length === 0 || names.includes('all')) return 'all';
  for (const n of names) {
    if (!(WORKLOAD_CONTROLLER_NAMES as readonly string[]).includes(n)) throw new Error(`unknown controller ${JSON.stringify(n)} (known: ${WORKLOAD_CONTROLLER_NAMES.join(', ')})`);
  }
  return names as WorkloadControllerName[];
}
