// The Node host's authentication flags.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authOptionsFromArgs, withCertificateAuthority } from './auth-flags.js';
import { kubeconfig } from './http-host.js';

describe('authOptionsFromArgs', () => {
  it('--anonymous and --token-file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'auth-flags-'));
    const file = join(dir, 'tokens.csv');
    writeFileSync(file, 'abc,jane,7,"devs"\n');
    expect(authOptionsFromArgs(['node', 'main', '--anonymous', '--token-file', file])).toEqual({
      anonymous: true,
      staticTokens: [{ token: 'abc', user: 'jane', uid: '7', groups: ['devs'] }],
    });
    expect(authOptionsFromArgs(['node', 'main', '--anonymous=false'])).toEqual({ anonymous: false });
    expect(authOptionsFromArgs(['node', 'main', '--port', '1'])).toEqual({});
  });

  it('an HTTPS kubeconfig trusts the certificate and carries the token', () => {
    const text = withCertificateAuthority(kubeconfig('https://127.0.0.1:1'), '/x/ca.crt', 'tok');
    expect(text).toContain('    server: https://127.0.0.1:1\n    certificate-authority: /x/ca.crt\n');
    expect(text).toContain('  user:\n    token: tok\n');
  });
});
