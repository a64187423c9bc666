// The --token-file format (kube-apiserver's static token CSV).
import { describe, expect, it } from 'vitest';
import { parseTokenFile } from './token-file.js';

describe('parseTokenFile', () => {
  it('reads token,user,uid and the optional quoted group list', () => {
    expect(parseTokenFile('t1,alice,100,"devs,ops"\n\n# comment\nt2,bob,101\n')).toEqual([
      { token: 't1', user: 'alice', uid: '100', groups: ['devs', 'ops'] },
      { token: 't2', user: 'bob', uid: '101', groups: [] },
    ]);
  });

  it('refuses short lines, empty and duplicate tokens', () => {
    expect(() => parseTokenFile('t1,alice\n')).toThrow('token file: line 1: expected at least 3 fields (token,user,uid), got 2');
    expect(() => parseTokenFile(',alice,1\n')).toThrow('token file: line 1: empty token');
    expect(() => parseTokenFile('t,a,1\nt,b,2\n')).toThrow('token file: line 2: duplicate token');
  });
});
