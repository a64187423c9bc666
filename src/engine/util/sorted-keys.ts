// Storage keys kept in sorted order, so that a namespace or a resource is a contiguous range of them. They
// are held in blocks of at most MAX_BLOCK entries: an insert or a delete moves the entries of one block and
// never every later one, as one sorted array does (a create in a resource of 100,000 objects cost 8x one in a
// resource of 1,000 that way, bench/scale.ts). Finding a key is two binary searches: over the blocks' last
// keys, then in the block. An entry is a key, or an object that holds its key (SortedEntries): a reader of a
// range then gets each key's entry from the block itself, not from a hash map keyed by the key.

/** A block splits in two when it would grow past this many keys. */
const MAX_BLOCK = 512;

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

/**
 * Entries kept sorted by their key (`keyOf`), in blocks. Each key is there at most once; an entry is replaced
 * by deleting its key and adding it again, or kept and changed in place by its owner (the key must not
 * change).
 */
export class SortedEntries<E> {
  /** Non-empty blocks, each sorted, every key of a block below every key of the next. */
  private blocks: E[][] = [];
  private count = 0;

  constructor(private readonly keyOf: (entry: E) => string) {}

  get size(): number {
    return this.count;
  }

  /** The block that holds `key` or would: the first whose last key is not below it (else the last block). */
  private blockFor(key: string): number {
    const b = this.blocks;
    const keyOf = this.keyOf;
    let lo = 0;
    let hi = b.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = b[mid];
      if (keyOf(block[block.length - 1]) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo === b.length ? b.length - 1 : lo;
  }

  /** The first index of `block` whose key is not below `key` (block.length when there is none). */
  private lowerBound(block: readonly E[], key: string): number {
    const keyOf = this.keyOf;
    let lo = 0;
    let hi = block.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keyOf(block[mid]) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds `entry` unless an entry with its key is there; whether it was added. */
  add(entry: E): boolean {
    const blocks = this.blocks;
    const key = this.keyOf(entry);
    if (blocks.length === 0) {
      blocks.push([entry]);
      this.count = 1;
      return true;
    }
    const last = blocks[blocks.length - 1];
    // keys that come in order (a load from storage, names that grow) go at the end without a search
    if (this.keyOf(last[last.length - 1]) < key) {
      if (last.length < MAX_BLOCK) last.push(entry);
      else blocks.push([entry]);
      this.count++;
      return true;
    }
    const bi = this.blockFor(key);
    const block = blocks[bi];
    const i = this.lowerBound(block, key);
    if (i < block.length && this.keyOf(block[i]) === key) return false;
    block.splice(i, 0, entry);
    this.count++;
    if (block.length > MAX_BLOCK) blocks.splice(bi + 1, 0, block.splice(block.length >>> 1));
    return true;
  }

  /** Removes the entry of `key`; whether it was there. */
  delete(key: string): boolean {
    if (this.blocks.length === 0) return false;
    const bi = this.blockFor(key);
    const block = this.blocks[bi];
    const i = this.lowerBound(block, key);
    if (i >= block.length || this.keyOf(block[i]) !== key) return false;
    block.splice(i, 1);
    this.count--;
    if (block.length === 0) this.blocks.splice(bi, 1);
    return true;
  }

  /**
   * Calls `visit` with each entry whose key is not below `start`, in order, until it returns false (a range's
   * reader stops at the first key past its prefix).
   */
  scan(start: string, visit: (entry: E) => boolean): void {
    const blocks = this.blocks;
    if (blocks.length === 0) return;
    let bi = this.blockFor(start);
    let i = this.lowerBound(blocks[bi], start);
    for (; bi < blocks.length; bi++, i = 0) {
      const block = blocks[bi];
      for (; i < block.length; i++) if (!visit(block[i])) return;
    }
  }

  /**
   * Calls `visit` with each entry whose key is at least `start` and below `end` (every key from `start` on when
   * `end` is undefined), in order, until it returns false. The keys of the entries in between are not read:
   * the range is counted by rank first.
   */
  scanRange(start: string, end: string | undefined, visit: (entry: E) => boolean): void {
    let left = (end === undefined ? this.count : this.rank(end)) - this.rank(start);
    if (left <= 0) return;
    this.scan(start, (entry) => --left >= 0 && visit(entry));
  }

  /** How many keys are below `key` (a block count plus one search: no key is visited). */
  rank(key: string): number {
    const blocks = this.blocks;
    if (blocks.length === 0) return 0;
    const bi = this.blockFor(key);
    let n = 0;
    for (let b = 0; b < bi; b++) n += blocks[b].length;
    return n + this.lowerBound(blocks[bi], key);
  }

  /** Every entry, in order. */
  toArray(): E[] {
    return this.blocks.flat();
  }

  /** Replaces the content with `sorted` (ascending by key, no two with one key). */
  reset(sorted: readonly E[]): void {
    this.blocks = [];
    for (let i = 0; i < sorted.length; i += MAX_BLOCK) this.blocks.push(sorted.slice(i, i + MAX_BLOCK));
    this.count = sorted.length;
  }
}

const ownKey = (key: string): string => key;

/** Keys alone, sorted: the entries are the keys. */
export class SortedKeys extends SortedEntries<string> {
  constructor() {
    super(ownKey);
  }
}
