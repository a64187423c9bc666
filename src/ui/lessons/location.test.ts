import { describe, expect, it } from 'vitest';
import { leaveLessonSearch, lessonSearch, readLessonLocation } from './location.js';

describe('lesson location', () => {
  it('reads the lesson and step (1-based in the URL) and whether the page is on its cluster', () => {
    const l = readLessonLocation('?cluster=lesson-ssa&lesson=ssa&step=2');
    expect(l?.lesson.id).toBe('ssa');
    expect(l?.step).toBe(1);
    expect(l?.inOwnCluster).toBe(true);
    expect(readLessonLocation('?lesson=ssa&step=1')?.inOwnCluster).toBe(false);
    expect(readLessonLocation('?cluster=lesson-x&lesson=nope')).toBeUndefined();
  });

  it('clamps a step out of range and ignores a step that is not a number', () => {
    expect(readLessonLocation('?cluster=lesson-ssa&lesson=ssa&step=99')?.step).toBe(4);
    expect(readLessonLocation('?cluster=lesson-ssa&lesson=ssa&step=-3')?.step).toBe(0);
    expect(readLessonLocation('?cluster=lesson-ssa&lesson=ssa&step=x')?.step).toBe(0);
  });

  it('writes the lesson keeping other parameters, and leaves it for the given cluster', () => {
    expect(lessonSearch('?engine=page&cluster=mine', 'gc', 0)).toBe('?engine=page&cluster=lesson-gc&lesson=gc&step=1');
    expect(leaveLessonSearch('?engine=page&cluster=lesson-gc&lesson=gc&step=2', 'mine')).toBe('?engine=page&cluster=mine');
    expect(leaveLessonSearch('?cluster=lesson-gc&lesson=gc&step=2', 'default')).toBe('');
  });
});
