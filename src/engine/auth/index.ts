// Who may act: the engine's authentication, impersonation and authorization layers, and the start-up work
// of the RBAC post-start hook. The controllers that go with the bootstrap policy (ClusterRole aggregation,
// default service accounts) run in the controller manager (src/engine/controllers/). The request path uses
// authenticate -> impersonate -> authorize (see api-server.ts).

import type { Env } from '../env.js';
import type { ClusterState } from '../registry/state.js';
import { ClusterAuthorizer, stateRbacObjects } from './authorize.js';
import type { AuthenticationOptions, TokenChecker } from './authenticate.js';
import { InternalClient, type HandleAs } from './client.js';
import { reconcileBootstrapPolicy } from './reconcile.js';
import { ServiceAccountTokens } from './service-account-tokens.js';
import { APISERVER_USER } from './user.js';
import { objectKey } from '../registry/keys.js';

export { authenticate } from './authenticate.js';
export { impersonate } from './impersonate.js';
export { requestAttributes } from './authorize.js';
export type { UserInfo } from './user.js';

export interface AuthOptions extends AuthenticationOptions {
  /**
   * Create and reconcile the bootstrap RBAC policy at start, and run its controllers (ClusterRole
   * aggregation, the `default` service accounts) in the controller manager. Default: on in the browser
   * hosts; the Node host's `npm run serve` turns it on; off for engines embedded in tests, which count
   * revisions from an empty cluster.
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

/** The RBAC post-start hook: the bootstrap roles and bindings, reconciled at every start. */
export async function reconcileBootstrapRbac(state: ClusterState, handleAs: HandleAs, basePath: string): Promise<void> {
  const apiserver = new InternalClient(handleAs, APISERVER_USER, `kube-apiserver/${KUBE_VERSION}`, basePath);
  await reconcileBootstrapPolicy(state, apiserver);
}
