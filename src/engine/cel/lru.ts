// A fixed-size cache that forgets the least recently used entry first: the bound on every cache of
// compiled CEL environments and programs, so distinct expressions or schemas cannot grow memory without end.

export class LruCache<K, V> {
  readonly #map = new Map<K, V>();
  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new Error('LruCache capacity must be at least 1');
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v === undefined) return undefined;
    // a Map iterates in insertion order: re-inserting makes the entry the most recent
    this.#map.delete(key);
    this.#map.set(key, v);
    return v;
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  set(key: K, value: V): this {
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.capacity) this.#map.delete(this.#map.keys().next().value as K);
    return this;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }
}
