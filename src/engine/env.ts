// What the engine needs from the outside world, injected so that the engine stays pure and tests can
// drive time (watch expiry, token lifetime, bookmarks) and identities deterministically.

/** Wall-clock time in milliseconds since the epoch. */
export interface Clock {
  now(): number;
}

export type TimerHandle = unknown;

export interface Timers {
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Source of identifiers and randomness. */
export interface Ids {
  /** A new RFC 4122 version-4 UUID string. */
  uid(): string;
  /** `n` random characters from the alphabet Kubernetes uses for generateName suffixes. */
  suffix(n: number): string;
  /** A random integer in [0, max). */
  int(max: number): number;
}

/**
 * Outgoing HTTP for admission webhooks whose clientConfig.url the host can reach. `post` answers the status
 * and body, or rejects with an Error whose message says why the call failed (as Go's HTTP client words it,
 * e.g. `dial tcp 127.0.0.1:1: connect: connection refused`). Hosts without it cannot call webhooks.
 */
export interface OutboundHttp {
  post(url: string, body: string, opts: { timeoutMs: number; caBundle?: string }): Promise<{ status: number; body: string }>;
}

export interface Env {
  clock: Clock;
  timers: Timers;
  ids: Ids;
  http?: OutboundHttp;
}

/** RFC 3339 in whole seconds, UTC, as metav1.Time marshals it. */
export function rfc3339(ms: number): string {
  // every write stamps one to three of these, nearly always within the same second: the text of the
  // latest second is kept
  const sec = Math.floor(ms / 1000);
  if (sec !== lastSecond) {
    lastSecondText = new Date(sec * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = sec;
  }
  return lastSecondText;
}

let lastSecond = NaN;
let lastSecondText = '';

/** RFC 3339 with microseconds, as metav1.MicroTime marshals it. */
export function rfc3339Micro(ms: number): string {
  // toISOString always ends in `.sssZ` (years 0-9999): three more zero digits before the Z
  const iso = new Date(ms).toISOString();
  return iso.endsWith('Z') ? `${iso.slice(0, -1)}000Z` : iso;
}
