// The real-world Env for hosts (service worker, page, Node): wall clock, real timers, crypto-random ids.
// Lives outside the engine, which only ever sees the Env interface.
import type { Env } from '../engine/env.js';

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'; // k8s.io/apimachinery/pkg/util/rand

function randomInt(max: number): number {
  const buf = new Uint32Array(1);
  globalThis.crypto.getRandomValues(buf);
  return buf[0] % max;
}

export function systemEnv(): Env {
  return {
    clock: { now: () => Date.now() },
    timers: {
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>),
    },
    ids: {
      uid: () => globalThis.crypto.randomUUID(),
      suffix: (n) => {
        let s = '';
        for (let i = 0; i < n; i++) s += SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)];
        return s;
      },
      int: (max) => randomInt(max),
    },
  };
}
