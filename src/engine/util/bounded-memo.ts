// A memo of pure results (a quantity's canonical text, a manager identifier's parse, a decoded field set)
// that empties itself when it reaches its bound: the keys a cluster repeats are few, so a refill after the
// rare clear costs less than keeping the order of use (cel/lru.ts does that, for compiled programs).

export class BoundedMemo<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly limit: number) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Keeps `value` under `key` (emptying the memo first when it is full) and returns it. */
  set(key: K, value: V): V {
    if (this.map.size >= this.limit) this.map.clear();
    this.map.set(key, value);
    return value;
  }
}
