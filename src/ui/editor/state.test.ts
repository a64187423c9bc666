import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, sanitizeSettings, ValueStore } from './state.js';

describe('editor state', () => {
  it('keeps known settings of the right type from a link, defaults the rest', () => {
    expect(sanitizeSettings({ fieldManager: 'alice', dryRun: true, force: 'yes', unknown: 1, fieldValidation: 'Loud', patchType: 'merge' })).toEqual({
      ...DEFAULT_SETTINGS,
      fieldManager: 'alice',
      dryRun: true,
      patchType: 'merge',
    });
  });

  it('ValueStore notifies on change only', () => {
    const s = new ValueStore(1);
    const seen: number[] = [];
    const off = s.subscribe(() => seen.push(s.get()));
    s.set(1);
    s.set(2);
    off();
    s.set(3);
    expect(seen).toEqual([2]);
    expect(s.get()).toBe(3);
  });
});
