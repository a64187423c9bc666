// The past view's model: the objects at a revision of the window, each compared with now. Pure.
import type { HistoryLog, ObjectState } from './log.js';

export interface PastRow {
  /** Object id (uid). */
  key: string;
  /** `Kind namespace/name`. */
  label: string;
  /** unchanged / changed / deleted since the revision; created: exists now, not then. */
  status: 'unchanged' | 'changed' | 'deleted' | 'created';
  past?: ObjectState;
  now?: ObjectState;
}

function label(s: ObjectState): string {
  const m = s.object.metadata ?? {};
  return `${s.object.kind ?? s.res.kind} ${m.namespace ? `${m.namespace}/` : ''}${m.name ?? ''}`;
}

/** The window's start, then every distinct revision with a change, ascending. */
export function revisionStops(log: HistoryLog): number[] {
  const out = [log.start];
  for (const r of log.records) if (r.revision > out[out.length - 1]) out.push(r.revision);
  return out;
}

/** Every object at `revision` and every object created since, by kind and name. */
export function pastView(log: HistoryLog, revision: number): PastRow[] {
  const then = log.stateAt(revision);
  const now = log.now();
  const rows: PastRow[] = [];
  for (const [key, past] of then) {
    const cur = now.get(key);
    // every write that changes an object gives it a new revision (a no-op write stores nothing)
    const status = !cur ? 'deleted' : cur.revision === past.revision ? 'unchanged' : 'changed';
    rows.push({ key, label: label(past), status, past, now: cur });
  }
  for (const [key, cur] of now) if (!then.has(key)) rows.push({ key, label: label(cur), status: 'created', now: cur });
  return rows.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}
