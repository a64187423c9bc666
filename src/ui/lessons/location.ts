// Where a lesson lives in the URL: `?cluster=lesson-<id>&lesson=<id>&step=<n>`, so a reload resumes it.
// Pure (the search string in, the search string out).
import { lessonById, type Lesson } from './lessons.js';

export const LESSON_CLUSTER_PREFIX = 'lesson-';

export function lessonCluster(id: string): string {
  return `${LESSON_CLUSTER_PREFIX}${id}`;
}

export interface LessonLocation {
  lesson: Lesson;
  /** 0-based, within the lesson's steps (a step past the end means the lesson is finished). */
  step: number;
  /** The page is on the lesson's own cluster (otherwise nothing of the lesson may run). */
  inOwnCluster: boolean;
}

/** The lesson and step named by the query, if any. */
export function readLessonLocation(search: string): LessonLocation | undefined {
  const params = new URLSearchParams(search);
  const lesson = lessonById(params.get('lesson'));
  if (!lesson) return undefined;
  const raw = Number(params.get('step') ?? '1');
  const step = Number.isInteger(raw) ? Math.min(Math.max(raw, 1), lesson.steps.length + 1) - 1 : 0;
  return { lesson, step, inOwnCluster: params.get('cluster') === lessonCluster(lesson.id) };
}

/** The query for lesson `id` at (0-based) `step`, keeping the other parameters (e.g. `engine`). */
export function lessonSearch(search: string, id: string, step: number): string {
  const params = new URLSearchParams(search);
  params.set('cluster', lessonCluster(id));
  params.set('lesson', id);
  params.set('step', String(step + 1));
  return `?${params}`;
}

/** The query without the lesson, on `cluster` (the user's own). */
export function leaveLessonSearch(search: string, cluster: string): string {
  const params = new URLSearchParams(search);
  params.delete('lesson');
  params.delete('step');
  if (cluster === 'default') params.delete('cluster');
  else params.set('cluster', cluster);
  const s = params.toString();
  return s ? `?${s}` : '';
}
