// Who may act: the engine's authentication, impersonation and authorization layers, and the start-up work
// of the RBAC post-start hook and the controllers that belong to it (ClusterRole aggregation, default
// service accounts). The request path uses authenticate -> impersonate -> authorize (see api-server.ts).

import type { Env } from '../env.js';
import type { ClusterState } from '../registry/state.js';
import { aggregateOnce, startClusterRoleAggregation, type Controller } from './aggregation.js';
import { ClusterAuthorizer, stateRbacObjects } from './authorize.js';
import type { AuthenticationOptions, TokenChecker } from './authenticate.js';
import { InternalClient, type HandleAs } from './client.js';
import { reconcileBootstrapPolicy } from './reconcile.js';
import { ServiceAccountTokens } from './service-account-tokens.js';
import { ensureDefaultServiceAccounts, startServiceAccountController } from './service-accounts.js';
import { APISERVER_USER, serviceAccountUser } from './user.js';
import { objectKey } from '../registry/keys.js';

export { authenticate } from './authenticate.js';
export { impersonate } from './impersonate.js';
export { authorize, requestAttributes } from './authorize.js';
export type { UserInfo } from './user.js';

export interface AuthOptions extends AuthenticationOptions {
  /**
   * Create and reconcile the bootstrap RBAC policy at start and run its controllers (ClusterRole
   * aggregation, the `default` service accounts). Default: on in the browser hosts; the Node host's
   * `npm run serve` turns it on; off for engines embedded in tests, which count revisions from an empty
   * cluster.
   */
  bootstrapPolicy?: boolean;
}

export interface ClusterAuth {
  authorizer: ClusterAuthorizer;
  tokens: ServiceAccountTokens;
  /** Service-account tokens checked against the stored service accounts. */
  tokenChecker: TokenChecker;
}

export function createClusterAuth(state: ClusterState, env: Env): ClusterAuth {
  const tokens = new ServiceAccountTokens(state, env);
  return {
    authorizer: new ClusterAuthorizer(stateRbacObjects(state)),
    tokens,
    tokenChecker: {
      check: (token) => tokens.check(token, (ns, name) => state.get(objectKey('', 'serviceaccounts', ns, name))?.object.metadata ?? undefined),
    },
  };
}

const KUBE_VERSION = 'v1.33.0 (js/wasm) kubernetes/60a317e';

/** The RBAC post-start hook, then the controllers; returns them so the engine can stop them. */
export async function startAuthControllers(state: ClusterState, env: Env, handleAs: HandleAs, basePath: string): Promise<Controller[]> {
  const apiserver = new InternalClient(handleAs, APISERVER_USER, `kube-apiserver/${KUBE_VERSION}`, basePath);
  await reconcileBootstrapPolicy(state, apiserver);
  const controllerClient = (sa: string) => new InternalClient(handleAs, serviceAccountUser('kube-system', sa, ''), `kube-controller-manager/${KUBE_VERSION}/${sa}`, basePath);
  const aggregation = controllerClient('clusterrole-aggregation-controller');
  const serviceAccounts = controllerClient('service-account-controller');
  // aggregated roles and default service accounts exist before the first request
  for (let pass = 0; pass < 5 && (await aggregateOnce(state, aggregation)); pass++);
  await ensureDefaultServiceAccounts(state, serviceAccounts);
  return [startClusterRoleAggregation(state, env, aggregation), startServiceAccountController(state, env, serviceAccounts)];
}
