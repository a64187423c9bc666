// A work queue as client-go's (workqueue): keys are deduplicated, one key is never processed twice at the
// same time (a key added while processed runs again afterwards), delays run on the injected timers, and
// failures back off exponentially (5 ms doubling, at most 1000 s).

import type { Env, TimerHandle } from '../env.js';

export type Reconcile<K> = (key: K) => Promise<void>;

export class WorkQueue<K> {
  private readonly ready: K[] = [];
  private readonly queued = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly dirty = new Set<K>();
  private readonly delayed = new Map<K, { at: number; timer: TimerHandle }>();
  private readonly failures = new Map<K, number>();
  private running = false;
  private stopped = false;
  private drained: (() => void)[] = [];

  constructor(
    private readonly env: Env,
    private readonly reconcile: Reconcile<K>,
    private readonly onError?: (key: K, error: unknown) => void,
  ) {}

  add(key: K): void {
    if (this.stopped) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.ready.push(key);
    this.pump();
  }

  /** Adds the key after `ms` (the earliest of several pending delays wins). */
  addAfter(key: K, ms: number): void {
    if (this.stopped) return;
    if (ms <= 0) return this.add(key);
    const at = this.env.clock.now() + ms;
    const cur = this.delayed.get(key);
    if (cur && cur.at <= at) return;
    if (cur) this.env.timers.clearTimeout(cur.timer);
    const timer = this.env.timers.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, ms);
    this.delayed.set(key, { at, timer });
  }

  /** Retry with exponential backoff. */
  addRateLimited(key: K): void {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    this.addAfter(key, Math.min(5 * 2 ** n, 1_000_000));
  }

  forget(key: K): void {
    this.failures.delete(key);
  }

  /** Nothing ready or being processed (delayed keys do not count). */
  get idle(): boolean {
    return !this.running && this.ready.length === 0;
  }

  /** Resolves when the queue has nothing ready or in progress. */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    for (const d of this.delayed.values()) this.env.timers.clearTimeout(d.timer);
    this.delayed.clear();
    this.ready.length = 0;
    this.queued.clear();
  }

  private pump(): void {
    if (this.running) return;
    this.running = true;
    void this.run();
  }

  private async run(): Promise<void> {
    while (!this.stopped && this.ready.length > 0) {
      const key = this.ready.shift()!;
      this.queued.delete(key);
      this.processing.add(key);
      try {
        await this.reconcile(key);
      } catch (e) {
        this.onError?.(key, e);
        this.addRateLimited(key);
      }
      this.processing.delete(key);
      if (this.dirty.delete(key)) this.add(key);
    }
    this.running = false;
    const waiters = this.drained;
    this.drained = [];
    for (const w of waiters) w();
  }
}
