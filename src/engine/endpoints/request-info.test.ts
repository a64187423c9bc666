// Routing from the raw path, for every host: segments are decoded one by one, so no encoding can turn a
// name into a step up the path; the engine refuses such names itself, whatever URL the host handed it.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { createApiServer } from '../server.js';
import { fakeEnv } from '../testing/harness.js';
import { headerValue, warningHeader } from './responders.js';
import { pathSegments, requestInfo } from './request-info.js';

describe('pathSegments', () => {
  it('decodes each segment alone and keeps dot segments as names', () => {
    expect(pathSegments('/api/v1/namespaces/default/configmaps/%2e%2e')).toEqual(['api', 'v1', 'namespaces', 'default', 'configmaps', '..']);
    expect(pathSegments('/api/v1/namespaces/default/configmaps/a%2Fb/')).toEqual(['api', 'v1', 'namespaces', 'default', 'configmaps', 'a/b']);
    expect(pathSegments('/api/v1/namespaces/x\\..')).toEqual(['api', 'v1', 'namespaces', 'x\\..']);
    expect(pathSegments('/a/%zz/%ff')).toEqual(['a', '%zz', '%ff']); // not decodable: kept as sent (and refused as a name: '%')
    expect(pathSegments('/')).toEqual([]);
    expect(pathSegments('/api//v1')).toBeUndefined();
    expect(pathSegments('//api/v1')).toBeUndefined();
  });

  it('a watch query on a subresource is a get; on a named object or a collection it is a watch', () => {
    const q = new URLSearchParams('watch=true');
    const verb = (p: string) => (requestInfo('GET', p, q) as { verb: string }).verb;
    expect(verb('/api/v1/namespaces/d/pods/x/status')).toBe('get');
    expect(verb('/api/v1/namespaces/d/pods/x')).toBe('watch');
    expect(verb('/api/v1/namespaces/d/pods')).toBe('watch');
  });
});

describe('the engine refuses names that leave their collection, whatever the host passed', () => {
  it('from the raw target, and from an already parsed URL (service worker, page)', async () => {
    const api = createApiServer({ storage: createMemoryStorage(), env: fakeEnv(), basePath: '/clusters/default' });
    await api.ready;
    const del = (url: string, target?: string) => api.handle(new Request(url, { method: 'DELETE' }), target === undefined ? undefined : { target });
    const message = async (r: Response) => [r.status, ((await r.json()) as { message: string }).message];
    expect(await message(await del('http://x/', '/clusters/default/api/v1/namespaces/default/configmaps/%2e%2e'))).toEqual([
      400,
      `Name parameter invalid: "..": may not be '..'`,
    ]);
    // a browser resolved %2e%2e already; a doubly encoded one arrives as %252e%252e and decodes to '%2e%2e'
    expect(await message(await del('http://x/clusters/default/api/v1/namespaces/default/configmaps/%252e%252e'))).toEqual([
      400,
      `Name parameter invalid: "%2e%2e": may not contain '%'`,
    ]);
    expect(await message(await del('http://x/clusters/default/api/v1/namespaces/default/configmaps/a%2Fb'))).toEqual([
      400,
      `Name parameter invalid: "a/b": may not contain '/'`,
    ]);
    const ns = await api.handle(new Request('http://x/clusters/default/api/v1/namespaces/default'));
    expect(((await ns.json()) as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp).toBeUndefined();
    await api.close();
  });
});

describe('header values', () => {
  it('a warning is quoted as the real server quotes it and carried as UTF-8 bytes', () => {
    expect(warningHeader('unknown field "ключ"')).toBe('299 - "unknown field \\"ключ\\""');
    expect(warningHeader('a\\b')).toBe('299 - "a\\\\b"');
    expect(warningHeader('bad\u0001text')).toBeUndefined();
    expect(headerValue('ключ')).toBe(Buffer.from('ключ', 'utf8').toString('latin1'));
    expect(headerValue('a\r\nb\u0001\tc')).toBe('a  b \tc');
    expect(() => new Headers({ Warning: headerValue(warningHeader('😀 ü')!) })).not.toThrow();
  });
});
