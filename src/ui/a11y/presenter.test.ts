import { describe, expect, it } from 'vitest';
import { panelShortcut, PRESENTER_KEY, readPresenter, stepView, writePresenter, type KeyLike } from './presenter.js';

const key = (k: Partial<KeyLike>): KeyLike => ({ key: '', code: '', altKey: false, shiftKey: false, ctrlKey: false, metaKey: false, ...k });

describe('panelShortcut', () => {
  it('Alt+digit goes to that view, by key code (macOS Option produces other characters)', () => {
    expect(panelShortcut(key({ altKey: true, code: 'Digit1', key: '1' }), 8)).toEqual({ type: 'view', index: 0 });
    expect(panelShortcut(key({ altKey: true, code: 'Digit8', key: '•' }), 8)).toEqual({ type: 'view', index: 7 });
    expect(panelShortcut(key({ altKey: true, code: 'Digit9', key: '9' }), 8)).toBeUndefined();
    expect(panelShortcut(key({ altKey: true, code: 'Digit0', key: '0' }), 8)).toBeUndefined();
  });
  it('Alt+Shift+P toggles the presenter layout; Alt+Shift+PageUp/PageDown step', () => {
    expect(panelShortcut(key({ altKey: true, shiftKey: true, code: 'KeyP', key: 'P' }), 8)).toEqual({ type: 'presenter' });
    expect(panelShortcut(key({ altKey: true, shiftKey: true, key: 'PageDown', code: 'PageDown' }), 8)).toEqual({ type: 'step', delta: 1 });
    expect(panelShortcut(key({ altKey: true, shiftKey: true, key: 'PageUp', code: 'PageUp' }), 8)).toEqual({ type: 'step', delta: -1 });
  });
  it('leaves the keys Monaco and the browser use alone', () => {
    // Ctrl+digit, Ctrl+PageUp, Alt+PageUp (Monaco scrolls), Alt+P, plain digits
    expect(panelShortcut(key({ ctrlKey: true, code: 'Digit1', key: '1' }), 8)).toBeUndefined();
    expect(panelShortcut(key({ ctrlKey: true, key: 'PageUp', code: 'PageUp' }), 8)).toBeUndefined();
    expect(panelShortcut(key({ altKey: true, key: 'PageUp', code: 'PageUp' }), 8)).toBeUndefined();
    expect(panelShortcut(key({ altKey: true, code: 'KeyP', key: 'p' }), 8)).toBeUndefined();
    expect(panelShortcut(key({ code: 'Digit1', key: '1' }), 8)).toBeUndefined();
    expect(panelShortcut(key({ altKey: true, ctrlKey: true, shiftKey: true, code: 'KeyP', key: 'P' }), 8)).toBeUndefined();
  });
});

describe('stepView', () => {
  it('wraps around both ways', () => {
    expect(stepView(0, -1, 8)).toBe(7);
    expect(stepView(7, 1, 8)).toBe(0);
    expect(stepView(3, 1, 8)).toBe(4);
  });
});

describe('the presenter choice', () => {
  it('is kept in storage, off by default and when storage fails', () => {
    const m = new Map<string, string>();
    const storage = { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
    expect(readPresenter(storage)).toBe(false);
    writePresenter(true, storage);
    expect(m.get(PRESENTER_KEY)).toBe('on');
    expect(readPresenter(storage)).toBe(true);
    writePresenter(false, storage);
    expect(readPresenter(storage)).toBe(false);
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(readPresenter(broken)).toBe(false);
    expect(() => writePresenter(true, broken)).not.toThrow();
  });
});
