// A set of field paths kept as a trie (structured-merge-diff fieldpath.Set): at each node the path
// elements that are members, and the child nodes. Both sorted by path-element order, which is also the
// order of the fieldsV1 encoding. Child nodes are never empty.

import type { JsonObject, JsonValue } from '../object.js';
import { comparePE, deserializePE, serializePE, UnknownPathElementType, type Path, type PathElement } from './element.js';

interface Node {
  pe: PathElement;
  set: FieldSet;
}

// Binary searches without an allocation per call (they run for every path element of every set
// operation): the index when found, else -(insertion point) - 1.
function searchMembers(arr: PathElement[], pe: PathElement): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = comparePE(arr[mid], pe);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -lo - 1;
}

function searchChildren(arr: Node[], pe: PathElement): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = comparePE(arr[mid].pe, pe);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -lo - 1;
}

export class FieldSet {
  members: PathElement[] = [];
  children: Node[] = [];

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  // --- membership ---------------------------------------------------------------------------------

  hasMember(pe: PathElement): boolean {
    return searchMembers(this.members, pe) >= 0;
  }

  child(pe: PathElement): FieldSet | undefined {
    const at = searchChildren(this.children, pe);
    return at >= 0 ? this.children[at].set : undefined;
  }

  insertMember(pe: PathElement): void {
    const at = searchMembers(this.members, pe);
    if (at < 0) this.members.splice(-at - 1, 0, pe);
  }

  /** The child node for `pe`, created when missing (callers must not leave it empty). */
  descend(pe: PathElement): FieldSet {
    const at = searchChildren(this.children, pe);
    if (at >= 0) return this.children[at].set;
    const s = new FieldSet();
    this.children.splice(-at - 1, 0, { pe, set: s });
    return s;
  }

  /**
   * Adds `sub` (non-empty, built by the caller and not shared) as the child node of `pe`; united with the
   * child already there, if any.
   */
  attach(pe: PathElement, sub: FieldSet): void {
    const at = searchChildren(this.children, pe);
    if (at >= 0) this.children[at].set = this.children[at].set.union(sub);
    else this.children.splice(-at - 1, 0, { pe, set: sub });
  }

  insert(p: Path): void {
    if (p.length === 0) return;
    let cur: FieldSet = this;
    for (let i = 0; i < p.length - 1; i++) cur = cur.descend(p[i]);
    cur.insertMember(p[p.length - 1]);
  }

  has(p: Path): boolean {
    if (p.length === 0) return false; // nobody owns the whole object
    let cur: FieldSet | undefined = this;
    for (let i = 0; i < p.length - 1; i++) {
      cur = cur.child(p[i]);
      if (!cur) return false;
    }
    return cur.hasMember(p[p.length - 1]);
  }

  empty(): boolean {
    return this.members.length === 0 && this.children.every((c) => c.set.empty());
  }

  size(): number {
    let n = this.members.length;
    for (const c of this.children) n += c.set.size();
    return n;
  }

  /** The subset under `pe`, without the prefix. */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? new FieldSet();
  }

  // --- algebra ------------------------------------------------------------------------------------

  union(o: FieldSet): FieldSet {
    const out = new FieldSet();
    out.members = mergeSorted(this.members, o.members);
    const kids: Node[] = [];
    let i = 0;
    let j = 0;
    while (i < this.children.length || j < o.children.length) {
      if (j >= o.children.length) kids.push(this.children[i++]);
      else if (i >= this.children.length) kids.push(o.children[j++]);
      else {
        const c = comparePE(this.children[i].pe, o.children[j].pe);
        if (c < 0) kids.push(this.children[i++]);
        else if (c > 0) kids.push(o.children[j++]);
        else {
          kids.push({ pe: this.children[i].pe, set: this.children[i].set.union(o.children[j].set) });
          i++;
          j++;
        }
      }
    }
    out.children = kids;
    return out;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    // looked up from the smaller side (a manager's whole set against the few paths a write changed)
    const [small, big] = o.members.length < this.members.length ? [o, this] : [this, o];
    out.members = small.members.length === 0 ? [] : small.members.filter((m) => big.hasMember(m));
    const [fewer, more] = o.children.length < this.children.length ? [o, this] : [this, o];
    for (const n of fewer.children) {
      const other = more.child(n.pe);
      if (!other) continue;
      const s = n.set.intersection(other);
      if (!s.empty()) out.children.push({ pe: n.pe, set: s });
    }
    return out;
  }

  difference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    out.members = this.members.filter((m) => !o.hasMember(m));
    for (const n of this.children) {
      const other = o.child(n.pe);
      if (!other) {
        out.children.push(n);
        continue;
      }
      const s = n.set.difference(other);
      if (!s.empty()) out.children.push({ pe: n.pe, set: s });
    }
    return out;
  }

  /** Whether every path of this set is a path of `o` (this.difference(o) is empty), without building a set. */
  within(o: FieldSet): boolean {
    for (const m of this.members) if (!o.hasMember(m)) return false;
    for (const n of this.children) {
      if (n.set.empty()) continue;
      const other = o.child(n.pe);
      if (!other || !n.set.within(other)) return false;
    }
    return true;
  }

  /** Whether this set and `o` have a path in common (this.intersection(o) is not empty), without building a set. */
  meets(o: FieldSet): boolean {
    for (const m of this.members) if (o.hasMember(m)) return true;
    for (const n of this.children) {
      const other = o.child(n.pe);
      if (other && n.set.meets(other)) return true;
    }
    return false;
  }

  /** Like difference, but a member of `o` also removes everything below it. */
  recursiveDifference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    out.members = this.members.filter((m) => !o.hasMember(m));
    for (const n of this.children) {
      if (o.hasMember(n.pe)) continue;
      const other = o.child(n.pe);
      if (!other) {
        out.children.push(n);
        continue;
      }
      const s = n.set.recursiveDifference(other);
      if (!s.empty()) out.children.push({ pe: n.pe, set: s });
    }
    return out;
  }

  /** Calls f with every path: a node's members first, then its children, each in order. */
  iterate(f: (p: Path) => void, prefix: Path = []): void {
    for (const m of this.members) f([...prefix, m]);
    for (const n of this.children) n.set.iterate(f, [...prefix, n.pe]);
  }

  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }

  equals(o: FieldSet): boolean {
    if (this.members.length !== o.members.length || this.children.length !== o.children.length) return false;
    for (let i = 0; i < this.members.length; i++) if (comparePE(this.members[i], o.members[i]) !== 0) return false;
    for (let i = 0; i < this.children.length; i++) {
      if (comparePE(this.children[i].pe, o.children[i].pe) !== 0) return false;
      if (!this.children[i].set.equals(o.children[i].set)) return false;
    }
    return true;
  }

  // --- fieldsV1 -----------------------------------------------------------------------------------

  /** The fieldsV1 object. `"."` marks a node that is a member and also has children. */
  toFieldsV1(): JsonObject {
    return this.emit(false);
  }

  private emit(includeSelf: boolean): JsonObject {
    const out: JsonObject = {};
    if (includeSelf && !(this.members.length === 0 && this.children.length === 0)) out['.'] = {};
    let mi = 0;
    let ci = 0;
    const m = this.members;
    const c = this.children;
    while (mi < m.length || ci < c.length) {
      const cmp = mi >= m.length ? 1 : ci >= c.length ? -1 : comparePE(m[mi], c[ci].pe);
      if (cmp < 0) {
        out[serializePE(m[mi])] = {};
        mi++;
      } else if (cmp > 0) {
        out[serializePE(c[ci].pe)] = c[ci].set.emit(false);
        ci++;
      } else {
        out[serializePE(c[ci].pe)] = c[ci].set.emit(true);
        mi++;
        ci++;
      }
    }
    return out;
  }

  /** Parses a fieldsV1 object; throws on a malformed key or value. Unknown key kinds are dropped. */
  static fromFieldsV1(v: JsonValue | undefined): FieldSet {
    if (v === undefined || v === null) return new FieldSet();
    if (typeof v !== 'object' || Array.isArray(v)) throw new Error('expected an object');
    return readNode(v).children ?? new FieldSet();
  }
}

function readNode(obj: JsonObject): { children?: FieldSet; isMember: boolean } {
  let children: FieldSet | undefined;
  let isMember = false;
  for (const [key, val] of Object.entries(obj)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe: PathElement;
    try {
      pe = deserializePE(key);
    } catch (e) {
      if (e instanceof UnknownPathElementType) continue;
      throw new Error(`parsing key as path element: ${(e as Error).message}`);
    }
    if (val === null || typeof val !== 'object' || Array.isArray(val)) {
      throw new Error(`ReadMapCB: expect { or n, but found ${JSON.stringify(val)?.[0] ?? '?'}`);
    }
    const sub = readNode(val);
    // A key with "." or without (understood) children is a member.
    const memberHere = sub.isMember || sub.children === undefined;
    if (memberHere) {
      children ??= new FieldSet();
      children.insertMember(pe);
    }
    if (sub.children && !sub.children.empty()) {
      children ??= new FieldSet();
      const node = children.descend(pe);
      if (node.members.length === 0 && node.children.length === 0) {
        // the first key for this element (the rule): take the parsed node as it is
        node.members = sub.children.members;
        node.children = sub.children.children;
      } else {
        // two spellings of one element (e.g. key fields in another order): their union
        const merged = node.union(sub.children);
        node.members = merged.members;
        node.children = merged.children;
      }
    }
  }
  return { children, isMember };
}

function mergeSorted(a: PathElement[], b: PathElement[]): PathElement[] {
  const out: PathElement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length) out.push(a[i++]);
    else if (i >= a.length) out.push(b[j++]);
    else {
      const c = comparePE(a[i], b[j]);
      if (c < 0) out.push(a[i++]);
      else if (c > 0) out.push(b[j++]);
      else {
        out.push(a[i]);
        i++;
        j++;
      }
    }
  }
  return out;
}
