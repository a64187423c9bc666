// The Node host's authentication flags.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { takeAuthFlags, withCertificateAuthority } from './auth-flags.js';
import { kubeconfig } from './http-host.js';

describe('takeAuthFlags', () => {
  it('--anonymous and --token-file; other arguments are left for the host', () => {
    const dir = mkdtempSync(join(tmpdir(), 'auth-flags-'));
    const file = join(dir, 'tokens.csv');
    writeFileSync(file, 'abc,jane,7,"devs"\n');
    expect(takeAuthFlags(['--port', '1', '--anonymous', '--token-file', file, '--data=x'])).toEqual({
      auth: { anonymous: true, staticTokens: [{ token: 'abc', user: 'jane', uid: '7', groups: ['devs'] }] },
      rest: ['--port', '1', '--data=x'],
    });
    expect(takeAuthFlags(['--anonymous=false'])).toEqual({ auth: { anonymous: false }, rest: [] });
    expect(() => takeAuthFlags(['--token-file'])).toThrow('--token-file needs a value');
    expect(() => takeAuthFlags(['--tls-cert-file', file])).toThrow('--tls-cert-file and --tls-private-key-file go together');
  });

  it('an HTTPS kubeconfig trusts the certificate and carries the token', () => {
    const text = withCertificateAuthority(kubeconfig('https://127.0.0.1:1'), '/x/ca.crt', 'tok');
    expect(text).toContain('    server: https://127.0.0.1:1\n    certificate-authority: /x/ca.crt\n');
    expect(text).toContain('  user:\n    token: tok\n');
  });
});
