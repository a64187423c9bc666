// The Node host's authentication flags, taken out of the command line before cli.ts parses the rest
// (their usage text is in cli.ts): `--anonymous` (requests without credentials act as system:anonymous,
// as kube-apiserver with anonymous auth; default: the cluster administrator), `--token-file FILE` (static
// bearer tokens, kube-apiserver's CSV format `token,user,uid,"group1,group2"`), and
// `--tls-cert-file FILE --tls-private-key-file FILE` (HTTPS).

import { readFileSync } from 'node:fs';
import type { AuthOptions } from '../../engine/auth/index.js';
import { parseTokenFile, type StaticToken } from '../../engine/auth/token-file.js';
import { DEFAULT_ADMIN } from '../../engine/auth/user.js';
import { randomBytes } from 'node:crypto';

export interface AuthFlags {
  auth: AuthOptions;
  tls?: { cert: string; key: string; certFile: string };
  /** The other arguments, for the host's own parser. */
  rest: string[];
}

const BOOLEAN_FLAGS = new Set(['anonymous']);
const VALUE_FLAGS = new Set(['token-file', 'tls-cert-file', 'tls-private-key-file']);

/** Takes this module's flags out of the command line; throws an Error whose message says what is wrong. */
export function takeAuthFlags(argv: readonly string[]): AuthFlags {
  const rest: string[] = [];
  const values = new Map<string, string>();
  let anonymous: boolean | undefined;
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(argv[i]);
    if (m && BOOLEAN_FLAGS.has(m[1])) {
      if (m[2] !== undefined && !['true', 'false'].includes(m[2])) throw new Error(`--${m[1]} must be true or false, got ${JSON.stringify(m[2])}`);
      anonymous = m[2] !== 'false';
      continue;
    }
    if (m && VALUE_FLAGS.has(m[1])) {
      let value = m[2];
      if (value === undefined) {
        if (i + 1 >= argv.length) throw new Error(`--${m[1]} needs a value`);
        value = argv[++i];
      }
      values.set(m[1], value);
      continue;
    }
    rest.push(argv[i]);
  }
  const auth: AuthOptions = {};
  if (anonymous !== undefined) auth.anonymous = anonymous;
  const tokenFile = values.get('token-file');
  if (tokenFile !== undefined) auth.staticTokens = parseTokenFile(readFileSync(tokenFile, 'utf8'));
  const certFile = values.get('tls-cert-file');
  const keyFile = values.get('tls-private-key-file');
  if ((certFile === undefined) !== (keyFile === undefined)) throw new Error('--tls-cert-file and --tls-private-key-file go together');
  const out: AuthFlags = { auth, rest };
  if (certFile !== undefined && keyFile !== undefined) out.tls = { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
  return out;
}

/**
 * Over HTTPS kubectl wants credentials in its kubeconfig (else it prompts), and a `--token` flag replaces
 * them: the host gives the default administrator a static token for its own kubeconfig.
 */
export function adminStaticToken(): StaticToken {
  return { token: randomBytes(24).toString('base64url'), user: DEFAULT_ADMIN.name, uid: '', groups: DEFAULT_ADMIN.groups.filter((g) => g !== 'system:authenticated') };
}

/** The kubeconfig for HTTPS: trusts the serving certificate (self-signed: its own authority), uses `token`. */
export function withCertificateAuthority(kubeconfigText: string, certFile: string, token: string): string {
  return kubeconfigText
    .replace(/^(    server: https:.*)$/m, `$1\n    certificate-authority: ${certFile}`)
    .replace(/^  user: \{\}$/m, `  user:\n    token: ${token}`);
}
