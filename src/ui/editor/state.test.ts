import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, sanitizeSettings, TextStore, ValueStore } from './state.js';

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

  describe('TextStore (the editor text, owned by Monaco while typed in)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** A store over fake timers (a pause of 100 ms), with what its subscriber was told. */
    function watched(initial: string) {
      vi.useFakeTimers();
      const s = new TextStore(initial, 100);
      const told: string[] = [];
      s.subscribe(() => told.push(s.get()));
      return { s, told };
    }

    /** An owner like Monaco: its own text, and a count of how often the store read it. */
    function owner(store: TextStore, initial: string) {
      const o = { text: initial, reads: 0, type(s: string) {
        o.text += s;
        store.changed(read);
      } };
      const read = () => {
        o.reads++;
        return o.text;
      };
      return o;
    }

    it('a keystroke reads nothing and tells nobody; get() reads the owner at once; subscribers hear once typing pauses', () => {
      const { s, told } = watched('a');
      const o = owner(s, 'a');
      o.type('b');
      o.type('c');
      expect(o.reads).toBe(0);
      expect(told).toEqual([]);
      expect(s.get()).toBe('abc');
      expect(o.reads).toBe(1);
      expect(s.get()).toBe('abc');
      expect(o.reads).toBe(1); // read once per change, not per get
      // typing goes on: the pause counts from the last keystroke
      vi.advanceTimersByTime(60);
      o.type('d');
      vi.advanceTimersByTime(60);
      expect(told).toEqual([]);
      vi.advanceTimersByTime(50);
      expect(told).toEqual(['abcd']);
      // nothing new: no second notice
      vi.advanceTimersByTime(500);
      expect(told).toEqual(['abcd']);
    });

    it('flush tells subscribers at once (page hidden, editor gone), and only of something new', () => {
      const { s, told } = watched('');
      const o = owner(s, '');
      o.type('x');
      s.flush();
      expect(told).toEqual(['x']);
      s.flush();
      vi.advanceTimersByTime(500);
      expect(told).toEqual(['x']);
    });

    it('set from elsewhere wins over typing not yet told, and is told at once', () => {
      const { s, told } = watched('a');
      const o = owner(s, 'a');
      o.type('b');
      // the same text as the editor shows: nothing to tell yet (the pause will)
      s.set('ab');
      expect(told).toEqual([]);
      o.type('c');
      // the text before the last keystroke: the editor must take it, so it is told even though it was told before
      s.set('a');
      expect(told).toEqual(['a']);
      expect(s.get()).toBe('a');
      vi.advanceTimersByTime(500);
      expect(told).toEqual(['a']);
      s.set('a');
      expect(told).toEqual(['a']);
    });

    it('a subscriber that throws does not keep the others from hearing of a change; its error reaches the setter', () => {
      const { s, told } = watched('a');
      s.subscribe(() => {
        throw new Error('cannot take it');
      });
      const after: string[] = [];
      s.subscribe(() => after.push(s.get()));
      expect(() => s.set('b')).toThrow('cannot take it');
      expect(told).toEqual(['b']);
      expect(after).toEqual(['b']);
    });
  });
});
