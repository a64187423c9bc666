// Waiting in tests on the wall clock (real timers): test support only. src/engine/testing is outside the
// engine's purity check (tsconfig.engine.json), as every test is; the engine itself never waits on time.

export interface WaitOptions {
  /** Give up after this many ms of real time (default 2,000). */
  ms?: number;
  /** Poll every this many ms (default 1). */
  every?: number;
}

/** What a truthy value of T can be. */
export type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Resolves with the first truthy value of `cond`, polled every `every` ms; fails after `ms` with "timed out
 * waiting for <what>" (a write stuck behind a lock, a watch that never sends, never gets there).
 */
export async function until<T>(what: string, cond: () => T | Promise<T>, { ms = 2000, every = 1 }: WaitOptions = {}): Promise<Truthy<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v as Truthy<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** `p`, or a failure "timed out: <what>" after `ms` of real time. */
export function within<T>(what: string, p: Promise<T>, ms = 2000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
