// Where the cluster's retained history starts, found with the real API only. The server keeps the events
// of revisions after its compacted revision C; a watch may start at any resourceVersion >= C and replays
// every change after it, and a list with resourceVersionMatch=Exact serves the state at any revision >= C.
// Nothing in the API names C directly, but two answers reveal it:
//   - a list at `resourceVersion=1&resourceVersionMatch=Exact` succeeds while nothing was compacted (C <= 1);
//   - otherwise a watch from resourceVersion 1 fails at once with an ERROR event whose Status reads
//     `too old resource version: 1 (C)`: the watch cache names the newest revision it can no longer serve,
//     which is the oldest one a watch may still start from.
// The window's start S is then max(C, 1): the state at S (lists at S) plus the watch events after S is the
// whole retained history. Pure parts are exported for tests; the probe takes a fetch function.
import { JsonStreamParser } from '../panels/timeline/stream.js';

/** The two numbers of a watch's `too old resource version: R (C)` message. */
export function parseTooOld(message: string | undefined): { requested: number; oldest: number } | undefined {
  const m = /^too old resource version: (\d+) \((\d+)\)$/.exec(message ?? '');
  return m ? { requested: Number(m[1]), oldest: Number(m[2]) } : undefined;
}

export interface HistoryWindow {
  /** The first revision of the window: its state is the base, the events after it are the history. */
  start: number;
  /** How it was found, for the UI: `list` (nothing compacted yet) or `watch` (the 410's message). */
  via: 'list' | 'watch';
}

/** Minimal fetch: the UI passes the store's logged fetch (so the probe shows in the request console). */
export type ProbeFetch = (path: string, signal?: AbortSignal) => Promise<Response>;

/** The collection the probe reads: every cluster has namespaces. */
export const PROBE_COLLECTION = '/api/v1/namespaces';

/** Reads the first JSON value of a (watch) response body, then stops reading. */
async function firstValue(res: Response): Promise<unknown> {
  const reader = res.body?.getReader();
  if (!reader) return undefined;
  const decoder = new TextDecoder();
  const parser = new JsonStreamParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const values = parser.push(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      if (values.length > 0) return values[0];
      if (done) return undefined;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

/**
 * Finds the window's start. Throws when the server answers neither way (the message says what it said).
 * The watch is aborted as soon as its first event is read.
 */
export async function findHistoryWindow(fetch: ProbeFetch, signal?: AbortSignal): Promise<HistoryWindow> {
  const list = await fetch(`${PROBE_COLLECTION}?resourceVersion=1&resourceVersionMatch=Exact&limit=1`, signal);
  await list.body?.cancel().catch(() => undefined);
  if (list.ok) return { start: 1, via: 'list' };
  if (list.status !== 410) throw new Error(`finding the history window: the list at revision 1 answered ${list.status}`);
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const watch = await fetch(`${PROBE_COLLECTION}?watch=true&resourceVersion=1`, ctl.signal);
    if (!watch.ok) throw new Error(`finding the history window: the watch from revision 1 answered ${watch.status}`);
    const ev = (await firstValue(watch)) as { type?: string; object?: { code?: number; message?: string } } | undefined;
    const parsed = ev?.type === 'ERROR' && ev.object?.code === 410 ? parseTooOld(ev.object.message) : undefined;
    if (!parsed) throw new Error(`finding the history window: the watch from revision 1 did not say where history starts (${JSON.stringify(ev ?? null).slice(0, 200)})`);
    return { start: Math.max(1, parsed.oldest), via: 'watch' };
  } finally {
    ctl.abort();
    signal?.removeEventListener('abort', onAbort);
  }
}
