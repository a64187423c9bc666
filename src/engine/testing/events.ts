// Test helper: collects the events of a watch through `handle` in the background, so that a test can act,
// let the engine settle, and then assert the whole sequence of events.
import type { TestClient } from './harness.js';

export interface EventLog {
  /** Events seen so far, as [type, name] pairs. */
  types(): string[];
  all(): { type: string; object: any }[];
  close(): void;
}

export async function collectEvents(c: TestClient, path: string): Promise<EventLog> {
  const ac = new AbortController();
  const sep = path.includes('?') ? '&' : '?';
  // changes from now on: watch from the collection's current resourceVersion
  const rv = (await c.req('GET', path)).body.metadata.resourceVersion;
  const res = await c.server.handle(new Request(`http://127.0.0.1${path}${sep}watch=1&timeoutSeconds=3600&resourceVersion=${rv}`, { signal: ac.signal }));
  if (res.status !== 200) throw new Error(`watch ${path}: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  const events: { type: string; object: any }[] = [];
  let buf = '';
  void (async () => {
    for (;;) {
      let r: Awaited<ReturnType<typeof reader.read>>;
      try {
        r = await reader.read();
      } catch {
        return;
      }
      if (r.done) return;
      buf += dec.decode(r.value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        events.push(JSON.parse(buf.slice(0, i)));
        buf = buf.slice(i + 1);
      }
    }
  })();
  return {
    types: () => events.map((e) => `${e.type} ${e.object?.metadata?.name ?? ''}`),
    all: () => events,
    close: () => {
      ac.abort();
      void reader.cancel().catch(() => undefined);
    },
  };
}
