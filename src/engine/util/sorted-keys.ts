// Storage keys kept in sorted order, so that a namespace or a resource is a contiguous range of them. They
// are held in blocks of at most MAX_BLOCK keys: an insert or a delete moves the keys of one block and never
// every later key, as one sorted array does (a create in a resource of 100,000 objects cost 8x one in a
// resource of 1,000 that way, bench/scale.ts). Finding a key is two binary searches: over the blocks' last
// keys, then in the block.

/** A block splits in two when it would grow past this many keys. */
const MAX_BLOCK = 512;

/** The first index of `a` whose value is not below `x` (a.length when there is none). */
export function lowerBound(a: readonly string[], x: string): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The smallest string greater than every string that starts with `prefix` (exclusive upper bound of the
 * prefix's key range, in UTF-16 code-unit order, which is both JS `<` and IndexedDB key order), or
 * undefined when there is none (empty prefix, or a prefix made only of U+FFFF).
 */
export function prefixEnd(prefix: string): string | undefined {
  let p = prefix;
  while (p.length > 0) {
    const last = p.charCodeAt(p.length - 1);
    if (last < 0xffff) return p.slice(0, -1) + String.fromCharCode(last + 1);
    p = p.slice(0, -1);
  }
  return undefined;
}

export class SortedKeys {
  /** Non-empty blocks, each sorted, every key of a block below every key of the next. */
  private blocks: string[][] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The block that holds `key` or would: the first whose last key is not below it (else the last block). */
  private blockFor(key: string): number {
    const b = this.blocks;
    let lo = 0;
    let hi = b.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = b[mid];
      if (block[block.length - 1] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo === b.length ? b.length - 1 : lo;
  }

  /** Adds `key` unless it is there; whether it was added. */
  add(key: string): boolean {
    const blocks = this.blocks;
    if (blocks.length === 0) {
      blocks.push([key]);
      this.count = 1;
      return true;
    }
    const last = blocks[blocks.length - 1];
    // keys that come in order (a load from storage, names that grow) go at the end without a search
    if (last[last.length - 1] < key) {
      if (last.length < MAX_BLOCK) last.push(key);
      else blocks.push([key]);
      this.count++;
      return true;
    }
    const bi = this.blockFor(key);
    const block = blocks[bi];
    const i = lowerBound(block, key);
    if (block[i] === key) return false;
    block.splice(i, 0, key);
    this.count++;
    if (block.length > MAX_BLOCK) blocks.splice(bi + 1, 0, block.splice(block.length >>> 1));
    return true;
  }

  /** Removes `key`; whether it was there. */
  delete(key: string): boolean {
    if (this.blocks.length === 0) return false;
    const bi = this.blockFor(key);
    const block = this.blocks[bi];
    const i = lowerBound(block, key);
    if (block[i] !== key) return false;
    block.splice(i, 1);
    this.count--;
    if (block.length === 0) this.blocks.splice(bi, 1);
    return true;
  }

  /**
   * Calls `visit` with each key not below `start`, in order, until it returns false (a range's reader stops
   * at the first key past its prefix).
   */
  scan(start: string, visit: (key: string) => boolean): void {
    const blocks = this.blocks;
    if (blocks.length === 0) return;
    let bi = this.blockFor(start);
    let i = lowerBound(blocks[bi], start);
    for (; bi < blocks.length; bi++, i = 0) {
      const block = blocks[bi];
      for (; i < block.length; i++) if (!visit(block[i])) return;
    }
  }

  /** How many keys are below `key` (a block count plus one search: no key is visited). */
  rank(key: string): number {
    const blocks = this.blocks;
    if (blocks.length === 0) return 0;
    const bi = this.blockFor(key);
    let n = 0;
    for (let b = 0; b < bi; b++) n += blocks[b].length;
    return n + lowerBound(blocks[bi], key);
  }

  /** Every key, in order. */
  toArray(): string[] {
    return this.blocks.flat();
  }

  /** Replaces the content with `sorted` (ascending, no duplicates). */
  reset(sorted: readonly string[]): void {
    this.blocks = [];
    for (let i = 0; i < sorted.length; i += MAX_BLOCK) this.blocks.push(sorted.slice(i, i + MAX_BLOCK));
    this.count = sorted.length;
  }
}
