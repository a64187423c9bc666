import { describe, expect, test } from 'vitest';
import { FieldSet } from '../fieldpath/set.js';
import {
  capUpdateManagers,
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  isResetManagedFields,
  managerIdentifier,
  printManager,
} from './managed.js';

const entry = (over: Record<string, unknown>) => ({
  manager: 'm',
  operation: 'Update',
  apiVersion: 'v1',
  time: '2026-01-01T00:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': { 'f:a': {} } },
  ...over,
});

describe('managedFields entries', () => {
  test('identity: manager + operation + apiVersion (Update only) + subresource', () => {
    expect(managerIdentifier({ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1' })).toBe('{"manager":"kubectl","operation":"Apply"}');
    expect(managerIdentifier({ manager: 'k', operation: 'Update', apiVersion: 'v1', subresource: 'status' })).toBe(
      '{"manager":"k","operation":"Update","apiVersion":"v1","subresource":"status"}',
    );
    expect(printManager('{"manager":"k","operation":"Update","apiVersion":"v1","subresource":"status"}')).toBe('"k" with subresource "status" using v1');
    expect(printManager('{"manager":"k","operation":"Apply"}')).toBe('"k"');
    expect(printManager('raw')).toBe('"raw"');
  });

  test('identifiers are kept per member, never across members whose texts run together', () => {
    // each pair reads the same when its members are joined: the kept identifier must be the pair's own
    const pairs: [Record<string, string>, Record<string, string>][] = [
      [{ manager: 'x', operation: 'Update', apiVersion: 'v1' }, { manager: '', operation: 'Update', apiVersion: 'v1x' }],
      [{ manager: 'status', operation: 'Update', apiVersion: 'v1' }, { manager: '', operation: 'Update', apiVersion: 'v1', subresource: 'status' }],
      [{ manager: 'a', operation: 'Update', apiVersion: 'v1', subresource: 'b' }, { manager: 'ba', operation: 'Update', apiVersion: 'v1' }],
    ];
    for (const [p, q] of pairs) {
      const written = (i: Record<string, string>) =>
        JSON.stringify(Object.fromEntries(['manager', 'operation', 'apiVersion', 'subresource'].filter((k) => i[k]).map((k) => [k, i[k]])));
      for (const i of [p, q, p, q]) expect(managerIdentifier(i)).toBe(written(i));
    }
  });

  test('decoded sets are shared by equal fieldsV1 texts, never across different ones, and a malformed one fails every time', () => {
    const fieldsV1 = { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } } } };
    const a = decodeManagedFields([entry({ fieldsV1 })]);
    const b = decodeManagedFields([entry({ fieldsV1: structuredClone(fieldsV1) })]);
    expect([...b.fields.values()][0].set).toBe([...a.fields.values()][0].set);
    const c = decodeManagedFields([entry({ fieldsV1: { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:ports': {} } } } } })]);
    expect(encodeManagedFields(c)![0].fieldsV1).toEqual({ 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:ports': {} } } } });
    expect(encodeManagedFields(a)![0].fieldsV1).toEqual(fieldsV1);
    for (let i = 0; i < 2; i++) expect(() => decodeManagedFields([entry({ fieldsV1: { 'k:[': {} } })])).toThrow(/error decoding set/);
  });

  test('decoding refuses what the real decoder refuses', () => {
    expect(() => decodeManagedFields([entry({ operation: 'Patch' })])).toThrow('operation must be `Apply` or `Update`');
    expect(() => decodeManagedFields([entry({ apiVersion: '' })])).toThrow('apiVersion must not be empty');
    expect(() => decodeManagedFields([entry({ fieldsType: undefined })])).toThrow('missing fieldsType in managed fields entry 0');
    expect(() => decodeManagedFields([entry({}), entry({ fieldsType: 'FieldsV2' })])).toThrow('invalid fieldsType "FieldsV2" in managed fields entry 1');
    expect(() => decodeManagedFields([entry({ fieldsV1: { 'k:[': {} } })])).toThrow(/error decoding set/);
    const m = decodeManagedFields([entry({ fieldsV1: undefined, time: undefined })]);
    expect([...m.fields.keys()]).toEqual(['{"manager":"m","operation":"Update","apiVersion":"v1"}']);
    expect(m.fields.values().next().value!.set.empty()).toBe(true);
  });

  test('encoding: Apply first, then time (none sorts first), manager, apiVersion, subresource', () => {
    const m = decodeManagedFields([
      entry({ manager: 'b', time: '2026-01-01T00:00:05Z' }),
      entry({ manager: 'a', time: '2026-01-01T00:00:05Z', apiVersion: 'v2' }),
      entry({ manager: 'a', time: '2026-01-01T00:00:05Z', apiVersion: 'v1' }),
      entry({ manager: 'z', operation: 'Apply', time: '2026-01-01T00:00:09Z' }),
      entry({ manager: 'y', operation: 'Apply', time: undefined }),
      entry({ manager: 'c', time: '2026-01-01T00:00:01Z' }),
    ]);
    expect(encodeManagedFields(m)!.map((e) => `${e.operation}:${e.manager}:${e.apiVersion}`)).toEqual([
      'Apply:y:v1',
      'Apply:z:v1',
      'Update:c:v1',
      'Update:a:v1',
      'Update:a:v2',
      'Update:b:v1',
    ]);
    expect(JSON.stringify(encodeManagedFields(m)![1])).toBe(
      '{"manager":"z","operation":"Apply","apiVersion":"v1","time":"2026-01-01T00:00:09Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}',
    );
    expect(encodeManagedFields(emptyManaged())).toBeUndefined();
  });

  test('the cap merges the oldest Update entries per apiVersion into ancient-changes', () => {
    const m = emptyManaged();
    for (let i = 1; i <= 12; i++) {
      const id = managerIdentifier({ manager: `u${i}`, operation: 'Update', apiVersion: i % 2 ? 'v1' : 'v2' });
      m.fields.set(id, { set: FieldSet.fromFieldsV1({ [`f:f${i}`]: {} }), apiVersion: i % 2 ? 'v1' : 'v2', applied: false });
      m.times.set(id, `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`);
    }
    capUpdateManagers(m);
    const out = encodeManagedFields(m)!;
    expect(out.length).toBe(10);
    expect(out.map((e) => `${e.manager}@${e.apiVersion}`).slice(0, 3)).toEqual(['ancient-changes@v1', 'ancient-changes@v2', 'u5@v1']);
    expect(out[0].fieldsV1).toEqual({ 'f:f1': {}, 'f:f3': {} });
    expect(out[0].time).toBe('2026-01-01T00:00:03Z');
    expect(out[1].fieldsV1).toEqual({ 'f:f2': {}, 'f:f4': {} });
  });

  test('reset request: exactly one empty entry', () => {
    expect(isResetManagedFields([{}])).toBe(true);
    expect(isResetManagedFields([{ manager: '' }])).toBe(true);
    expect(isResetManagedFields([])).toBe(false);
    expect(isResetManagedFields([{}, {}])).toBe(false);
    expect(isResetManagedFields([{ manager: 'x' }])).toBe(false);
    expect(isResetManagedFields(undefined)).toBe(false);
  });
});
