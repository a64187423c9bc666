// Issuing (TokenRequest) and checking service-account tokens. The signing key is made on first use from
// the injected id source and stored in the cluster's storage under a key no served resource reads, so it
// survives restarts and is never shown by the API.

import type { Env } from '../env.js';
import { objectKey } from '../registry/keys.js';
import type { ClusterState } from '../registry/state.js';
import { hexToBytes, signToken, verifyToken, type TokenClaims } from './tokens.js';
import { serviceAccountUser, type UserInfo } from './user.js';

/** The issuer and default audience of tokens (kube-apiserver's default in kind and kubeadm clusters). */
export const API_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';

const KEY_STORAGE_KEY = objectKey('x-playground.internal', 'signingkeys', '', 'service-account-token');

/** The real token authenticator allows 60 s of clock skew past `exp` (go-jose DefaultLeeway). */
const LEEWAY_S = 60;

export class ServiceAccountTokens {
  constructor(
    private readonly state: ClusterState,
    private readonly env: Env,
  ) {}

  private stored(): { key: Uint8Array; kid: string } | undefined {
    const o = this.state.get(KEY_STORAGE_KEY)?.object as { key?: string; metadata?: { uid?: string } } | undefined;
    if (!o?.key) return undefined;
    return { key: hexToBytes(o.key), kid: o.metadata?.uid ?? '' };
  }

  private async signingKey(): Promise<{ key: Uint8Array; kid: string }> {
    const have = this.stored();
    if (have) return have;
    return this.state.exclusive(async () => {
      const again = this.stored();
      if (again) return again;
      const hex = [this.env.ids.uid(), this.env.ids.uid(), this.env.ids.uid()].join('').replace(/-/g, '');
      const kid = this.env.ids.uid();
      await this.state.commit([{ kind: 'put', key: KEY_STORAGE_KEY, object: { metadata: { name: 'service-account-token', uid: kid }, key: hex }, expectRevision: 0 }], this.env.clock.now());
      return { key: hexToBytes(hex), kid };
    });
  }

  async issue(sa: { namespace: string; name: string; uid: string }, audiences: string[], expirationSeconds: number): Promise<{ token: string; expires: number }> {
    const { key, kid } = await this.signingKey();
    const now = Math.floor(this.env.clock.now() / 1000);
    const claims: TokenClaims = {
      aud: audiences,
      exp: now + expirationSeconds,
      iat: now,
      iss: API_AUDIENCE,
      jti: this.env.ids.uid(),
      'kubernetes.io': { namespace: sa.namespace, serviceaccount: { name: sa.name, uid: sa.uid } },
      nbf: now,
      sub: `system:serviceaccount:${sa.namespace}:${sa.name}`,
    };
    return { token: signToken(key, kid, claims), expires: (now + expirationSeconds) * 1000 };
  }

  /**
   * The user of a token this cluster signed: undefined when the token is not one of ours; an error text
   * when it is ours but no longer valid (expired, wrong audience, service account gone).
   */
  check(token: string, serviceAccount: (ns: string, name: string) => { uid?: string } | undefined): UserInfo | { error: string } | undefined {
    const k = this.stored();
    if (!k) return undefined;
    const claims = verifyToken(k.key, token);
    if (!claims) return undefined;
    const now = this.env.clock.now() / 1000;
    if (typeof claims.exp === 'number' && now > claims.exp + LEEWAY_S) return { error: 'service account token has expired' };
    if (typeof claims.nbf === 'number' && now < claims.nbf - LEEWAY_S) return { error: 'service account token is not valid yet' };
    if (!Array.isArray(claims.aud) || !claims.aud.includes(API_AUDIENCE)) return { error: 'token audiences is invalid for the target audiences' };
    const ref = claims['kubernetes.io'];
    const sa = serviceAccount(ref?.namespace ?? '', ref?.serviceaccount?.name ?? '');
    if (!sa) return { error: `service account ${ref?.namespace}/${ref?.serviceaccount?.name} has been deleted` };
    if (sa.uid !== ref.serviceaccount.uid) return { error: 'service account UID does not match claim' };
    return serviceAccountUser(ref.namespace, ref.serviceaccount.name, ref.serviceaccount.uid, {
      'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti}`],
    });
  }
}
