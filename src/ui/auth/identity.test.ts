import { describe, expect, it } from 'vitest';
import { ADMIN, impersonationHeaders, loadActingUser, parseActingUser, parseGroups, saveActingUser, validateActingUser, withImpersonation } from './identity.js';

describe('impersonation headers', () => {
  it('none for the administrator; user and one header per group; a service account alone', () => {
    expect(impersonationHeaders(ADMIN)).toEqual([]);
    expect(impersonationHeaders({ kind: 'user', name: 'jane', groups: ['devs', 'ops'] })).toEqual([
      ['Impersonate-User', 'jane'],
      ['Impersonate-Group', 'devs'],
      ['Impersonate-Group', 'ops'],
    ]);
    expect(impersonationHeaders({ kind: 'serviceaccount', namespace: 'team', name: 'builder' })).toEqual([['Impersonate-User', 'system:serviceaccount:team:builder']]);
  });
  it('withImpersonation keeps headers the caller set itself', () => {
    const h = withImpersonation(new Headers({ Accept: 'application/json' }), { kind: 'user', name: 'jane', groups: ['a', 'b'] });
    expect(h.get('Impersonate-User')).toBe('jane');
    expect(h.get('Impersonate-Group')).toBe('a, b');
    const own = withImpersonation(new Headers({ 'Impersonate-User': 'bob' }), { kind: 'user', name: 'jane', groups: ['a'] });
    expect([...own.entries()]).toEqual([['impersonate-user', 'bob']]);
  });
});

describe('stored per cluster', () => {
  const storage = () => {
    const m = new Map<string, string>();
    return { m, getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
  };
  it('round trip, per cluster, admin removes the key', () => {
    const s = storage();
    saveActingUser(s, 'a', { kind: 'user', name: 'jane', groups: ['devs'] });
    saveActingUser(s, 'b', { kind: 'serviceaccount', namespace: 'ns', name: 'sa' });
    expect(loadActingUser(s, 'a')).toEqual({ kind: 'user', name: 'jane', groups: ['devs'] });
    expect(loadActingUser(s, 'b')).toEqual({ kind: 'serviceaccount', namespace: 'ns', name: 'sa' });
    expect(loadActingUser(s, 'c')).toEqual(ADMIN);
    saveActingUser(s, 'a', ADMIN);
    expect(s.m.has('kube-playground:acting-user:a')).toBe(false);
    expect(loadActingUser(undefined, 'a')).toEqual(ADMIN);
  });
  it('anything malformed is the administrator', () => {
    for (const raw of ['', 'x', '{}', '{"kind":"user"}', '{"kind":"user","name":"","groups":[]}', '{"kind":"user","name":"j","groups":[1]}', '{"kind":"serviceaccount","namespace":"a:b","name":"c"}']) {
      expect(parseActingUser(raw), raw).toEqual(ADMIN);
    }
  });
});

describe('form input', () => {
  it('parseGroups', () => expect(parseGroups(' a, b,,a , c ')).toEqual(['a', 'b', 'c']));
  it('validateActingUser', () => {
    expect(validateActingUser({ kind: 'user', name: ' ', groups: [] })).toEqual(['a user name is required']);
    expect(validateActingUser({ kind: 'user', name: 'system:serviceaccount:a:b', groups: [] })).toHaveLength(1);
    expect(validateActingUser({ kind: 'serviceaccount', namespace: '', name: 'x' })).toEqual(['a namespace is required']);
    expect(validateActingUser({ kind: 'user', name: 'jane', groups: ['x'] })).toEqual([]);
  });
});
