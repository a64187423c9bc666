import { describe, expect, it } from 'vitest';
import type { HistoryEvent, StoredObject } from './interface.js';
import { shareHistoryStates, sharePrevObject } from './share-states.js';

const state = (name: string, rv: number, v = String(rv)) => Object.freeze({ metadata: Object.freeze({ name, resourceVersion: String(rv) }), data: Object.freeze({ v }) });
const k = '/core/configmaps/d/a';

describe('shareHistoryStates', () => {
  it('gives each state one object: the record, the newest object and the next prevObject', () => {
    // as read back from a persisted form: every mention is its own copy
    const history: HistoryEvent[] = [
      { revision: 1, type: 'ADDED', key: k, object: state('a', 1), time: 1 },
      { revision: 2, type: 'MODIFIED', key: k, object: state('a', 2), prevObject: state('a', 1), time: 2 },
      { revision: 3, type: 'MODIFIED', key: k, object: state('a', 3), prevObject: state('a', 2), time: 3 },
    ];
    const record: StoredObject = { key: k, object: state('a', 3), revision: 3 };
    const out = shareHistoryStates(history, (key) => (key === k ? record : undefined));
    expect(out).toEqual(history);
    expect(out[2].object).toBe(record.object);
    expect(out[1].object).toBe(out[2].prevObject);
    expect(out[0].object).toBe(out[1].prevObject);
    for (const e of out) expect(Object.isFrozen(e)).toBe(true);
  });

  it("leaves a deleted and re-created key's states apart", () => {
    const history: HistoryEvent[] = [
      { revision: 1, type: 'ADDED', key: k, object: state('a', 1), time: 1 },
      { revision: 2, type: 'DELETED', key: k, object: state('a', 2, '1'), prevObject: state('a', 1), time: 2 },
      { revision: 3, type: 'ADDED', key: k, object: state('a', 3), time: 3 },
    ];
    const record: StoredObject = { key: k, object: state('a', 3), revision: 3 };
    const out = shareHistoryStates(history, () => record);
    expect(out).toEqual(history);
    expect(out[2].object).toBe(record.object);
    expect(out[1].object).toBe(history[1].object);
    expect(out[0].object).toBe(out[1].prevObject);
  });
});

describe('sharePrevObject', () => {
  it('takes the cached object for the same revision and nothing else', () => {
    const e: HistoryEvent = { revision: 2, type: 'MODIFIED', key: k, object: state('a', 2), prevObject: state('a', 1), time: 2 };
    const cached: StoredObject = { key: k, object: state('a', 1), revision: 1 };
    const shared = sharePrevObject(e, cached);
    expect(shared).toEqual(e);
    expect(shared.prevObject).toBe(cached.object);
    expect(sharePrevObject(e, { key: k, object: state('a', 0), revision: 0 })).toBe(e);
    expect(sharePrevObject(e, undefined)).toBe(e);
  });
});
