// Reads a watch response body (chunked JSON, one event per value) and hands each event over.
import type { PlaygroundStore } from '../../playground.js';
import { JsonStreamParser } from '../timeline/stream.js';

export interface WatchResult {
  /** 'end': the server closed the stream; 'aborted': we did; 'http': a non-2xx answer (body in `body`). */
  outcome: 'end' | 'aborted' | 'http';
  status: number;
  body?: unknown;
  /** Bytes of an unfinished event left when the stream ended. */
  pending?: string;
}

export async function readWatch(
  store: PlaygroundStore,
  path: string,
  source: string,
  signal: AbortSignal,
  onEvent: (event: unknown) => void,
): Promise<WatchResult> {
  let res: Response;
  try {
    res = await store.fetch(path, { headers: { Accept: 'application/json' }, signal }, source);
  } catch (e) {
    if (signal.aborted) return { outcome: 'aborted', status: 0 };
    throw e;
  }
  if (!res.ok) {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* keep text */
    }
    return { outcome: 'http', status: res.status, body };
  }
  const parser = new JsonStreamParser();
  const decoder = new TextDecoder();
  const reader = res.body?.getReader();
  if (!reader) return { outcome: 'end', status: res.status };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const ev of parser.push(decoder.decode(value, { stream: true }))) onEvent(ev);
    }
    for (const ev of parser.push(decoder.decode())) onEvent(ev);
  } catch (e) {
    if (signal.aborted) return { outcome: 'aborted', status: res.status };
    throw e;
  } finally {
    try {
      reader.releaseLock();
    } catch {
      /* a read was still pending */
    }
  }
  return { outcome: signal.aborted ? 'aborted' : 'end', status: res.status, pending: parser.pending || undefined };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });
}
