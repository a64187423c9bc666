// The measurement core of the benches that compare (bench/ab.ts: two builds of the engine; bench/scale.ts
// and bench/growth.ts: clusters of different sizes): every side is set up first, then timed in rounds taken
// in turn (a, b, b, a, a, b, ...), so a burst of load on a shared machine lands on every side alike; warm-up
// rounds come first and are not kept. A figure is the median of the per-round p50s, a ratio the median of
// the per-round ratios (each round's sides ran seconds apart, under the same load).

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The value below which a fraction `f` of `xs` lies (nearest rank). */
export function quantile(xs: number[], f: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * f))];
}

export interface RoundOptions {
  /** Rounds kept. */
  rounds: number;
  /** Timed calls per side in each round. */
  perRound: number;
  /** Rounds run first and not kept (default 1). */
  warmupRounds?: number;
  /** Run, untimed, before every timed call (with the same arguments). */
  untimed?: (side: string, n: number) => Promise<unknown>;
}

/**
 * Times `run(side, n)` on every side, `perRound` calls per side and round, sides in turn with their order
 * reversed every other round; `n` counts each side's calls from 0 (warm-up included), so it can name
 * objects. A call may be synchronous: it is awaited only when it returns a promise. Returns, per side, the
 * p50 in ms of each kept round, in round order (round r of every side ran in the same stretch of time).
 */
export async function alternate<S extends string>(sides: readonly S[], opts: RoundOptions, run: (side: S, n: number) => unknown): Promise<Record<S, number[]>> {
  const warmup = opts.warmupRounds ?? 1;
  const p50s = Object.fromEntries(sides.map((s) => [s, [] as number[]])) as Record<S, number[]>;
  const calls = Object.fromEntries(sides.map((s) => [s, 0])) as Record<S, number>;
  const reversed = [...sides].reverse();
  for (let r = 0; r < warmup + opts.rounds; r++) {
    for (const side of r % 2 ? reversed : sides) {
      const times: number[] = [];
      for (let i = 0; i < opts.perRound; i++) {
        if (opts.untimed) await opts.untimed(side, calls[side]);
        const t = performance.now();
        const p = run(side, calls[side]++);
        if (p instanceof Promise) await p;
        times.push(performance.now() - t);
      }
      if (r >= warmup) p50s[side].push(median(times));
    }
  }
  return p50s;
}

/** Round by round, `b[r] / a[r]`. */
export function perRoundRatios(a: number[], b: number[]): number[] {
  return a.map((x, r) => b[r] / x);
}

/** `0.91x-1.08x`: the smallest and the largest of some ratios. */
export function spread(ratios: number[]): string {
  return `${Math.min(...ratios).toFixed(2)}x-${Math.max(...ratios).toFixed(2)}x`;
}

/** `0.95x-1.02x`: the middle half of some ratios (p25 to p75). */
export function middleHalf(ratios: number[]): string {
  return `${quantile(ratios, 0.25).toFixed(2)}x-${quantile(ratios, 0.75).toFixed(2)}x`;
}
