// The structured-merge-diff Updater: ownership bookkeeping for updates, and apply = merge + prune +
// conflict detection. All managers are compared at the object's own version (the engine has no
// per-version conversion of a kind's schema).

import type { JsonObject, JsonValue } from '../object.js';
import { FieldSet } from '../fieldpath/set.js';
import type { Path } from '../fieldpath/element.js';
import { valuesEqual } from '../fieldpath/value.js';
import type { TypeRef } from '../typed/schema.js';
import {
  addedOrModified,
  compare,
  ensureNamedFieldsAreMembers,
  merge,
  reconcileFieldSetWithSchema,
  removeItems,
  toFieldSet,
  type Comparison,
} from '../typed/ops.js';
import type { VersionedSet } from './managed.js';

export type ManagerSets = Map<string, VersionedSet>;

export interface Conflict {
  manager: string;
  path: Path;
}

/**
 * Thrown by apply on conflicts and always caught by its one caller (merge/index.ts), which answers 409:
 * control flow, not a failure, so not an Error (no stack trace captured on every conflicting apply).
 */
export class ConflictsError {
  constructor(readonly conflicts: Conflict[]) {}
}

// Field sets are immutable and the decoded ones are shared between writes (merge/managed.ts): what the
// schema makes of each (null: nothing to change) is kept per schema root.
const reconciled = new WeakMap<TypeRef, WeakMap<FieldSet, FieldSet | null>>();

/**
 * `prev` itself when `next` equals it: a manager whose fields did not change keeps the same (immutable) set
 * from write to write, so its encoding is made once (merge/managed.ts).
 */
export function kept(next: FieldSet, prev: FieldSet | undefined): FieldSet {
  return prev !== undefined && next !== prev && next.equals(prev) ? prev : next;
}

export class Updater {
  /** `ignored`: paths never tracked (reset fields such as `status` on the main resource). */
  constructor(
    private readonly root: TypeRef,
    private readonly ignored?: FieldSet,
  ) {}

  private filter(s: FieldSet): FieldSet {
    return this.ignored ? s.recursiveDifference(this.ignored) : s;
  }

  private reconcile(managers: ManagerSets): ManagerSets {
    let bySet = reconciled.get(this.root);
    if (!bySet) reconciled.set(this.root, (bySet = new WeakMap()));
    const out: ManagerSets = new Map();
    for (const [id, vs] of managers) {
      let r = bySet.get(vs.set);
      if (r === undefined) bySet.set(vs.set, (r = reconcileFieldSetWithSchema(vs.set, this.root) ?? null));
      out.set(id, r ? { ...vs, set: r } : vs);
    }
    return out;
  }

  private doUpdate(
    oldV: JsonValue,
    newV: JsonValue,
    managers: ManagerSets,
    workflow: string,
    force: boolean,
    unchanged = false,
    filtered?: Comparison,
  ): Comparison {
    let cmp: Comparison;
    if (filtered) cmp = filtered;
    else {
      // equal values compare to three empty sets: no walk needed (a no-op apply)
      cmp = unchanged ? { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() } : compare(this.root, oldV, newV);
      cmp.removed = this.filter(cmp.removed);
      cmp.modified = this.filter(cmp.modified);
      cmp.added = this.filter(cmp.added);
    }
    const changed = cmp.modified.union(cmp.added);
    const conflicts = new Map<string, FieldSet>();
    const removed = new Map<string, FieldSet>();
    for (const [id, vs] of managers) {
      if (id === workflow) continue;
      const c = vs.set.intersection(changed);
      if (!c.empty()) conflicts.set(id, c);
      if (!cmp.removed.empty()) removed.set(id, cmp.removed);
    }
    if (!force && conflicts.size > 0) {
      const list: Conflict[] = [];
      for (const id of [...conflicts.keys()].sort()) conflicts.get(id)!.iterate((p) => list.push({ manager: id, path: p }));
      throw new ConflictsError(list);
    }
    for (const [id, c] of conflicts) {
      const vs = managers.get(id)!;
      managers.set(id, { ...vs, set: vs.set.difference(c) });
    }
    for (const [id, r] of removed) {
      const vs = managers.get(id)!;
      managers.set(id, { ...vs, set: kept(vs.set.difference(r), vs.set) });
    }
    for (const [id, vs] of [...managers]) if (vs.set.empty()) managers.delete(id);
    return cmp;
  }

  /**
   * What a non-apply write records when no manager holds anything yet (a create, a reset): the fields the
   * write added or changed, less the ignored ones. update() with no managers gives the same set; this
   * skips its bookkeeping (the conflict and removal passes, three filters, the unions with an empty set).
   */
  first(live: JsonValue, next: JsonValue): FieldSet {
    return this.filter(addedOrModified(this.root, live, next));
  }

  /**
   * A non-apply write by `writer` whose every added or modified path `writer` owns already, which no other
   * manager owns, and whose removed paths nobody owns: update() then takes nothing from anyone and gives the
   * writer back only what it had, so every set stays as it came (reconciled). Answers those managers and
   * whether the write changed anything the writer owns (its entry's time moves then); otherwise the
   * comparison, filtered, for update() to go on with. `untracked`: paths the writer's entry never records
   * (a changed path there is left to update()).
   */
  owned(live: JsonValue, next: JsonValue, managersIn: ManagerSets, writer: string, untracked: FieldSet): { managers: ManagerSets; changed: boolean } | { managers: ManagerSets; cmp: Comparison } {
    const managers = this.reconcile(managersIn);
    const cmp = compare(this.root, live, next);
    cmp.removed = this.filter(cmp.removed);
    cmp.modified = this.filter(cmp.modified);
    cmp.added = this.filter(cmp.added);
    const own = managers.get(writer)?.set;
    if (!own || !cmp.added.within(own) || !cmp.modified.within(own) || cmp.added.meets(untracked) || cmp.modified.meets(untracked)) return { managers, cmp };
    for (const [id, vs] of managers) {
      // an empty set is dropped by update()
      if (vs.set.empty() || vs.set.meets(cmp.removed)) return { managers, cmp };
      if (id !== writer && (vs.set.meets(cmp.added) || vs.set.meets(cmp.modified))) return { managers, cmp };
    }
    return { managers, changed: !cmp.added.empty() || !cmp.modified.empty() };
  }

  /**
   * Records the changes of a non-apply write for `manager`; no conflicts. `reconciled`: the managers and
   * the filtered comparison owned() answered (the walk is not made again).
   */
  update(live: JsonValue, next: JsonValue, version: string, managersIn: ManagerSets, manager: string, reconciled?: { managers: ManagerSets; cmp: Comparison }): ManagerSets {
    const managers = reconciled ? reconciled.managers : this.reconcile(managersIn);
    const cmp = this.doUpdate(live, next, managers, manager, true, false, reconciled?.cmp);
    const prev = managers.get(manager)?.set ?? new FieldSet();
    const set = kept(this.filter(prev.difference(cmp.removed).union(cmp.modified).union(cmp.added)), prev);
    if (set.empty()) managers.delete(manager);
    else managers.set(manager, { set, apiVersion: version, applied: false });
    return managers;
  }

  /**
   * Server-side apply of `config` onto `live`. Returns the new object, or undefined when it equals
   * `live` (a no-op apply), and the managers. Throws ConflictsError unless `force`.
   */
  apply(
    live: JsonObject,
    config: JsonObject,
    version: string,
    managersIn: ManagerSets,
    manager: string,
    force: boolean,
  ): { object: JsonObject | undefined; managers: ManagerSets } {
    const managers = this.reconcile(managersIn);
    let merged = merge(this.root, live, config);
    const lastSet = managers.get(manager);
    const set = kept(this.filter(toFieldSet(this.root, config)), lastSet?.set);
    managers.set(manager, { set, apiVersion: version, applied: true });
    merged = this.prune(merged, managers, lastSet, set);
    const obj = (merged ?? {}) as JsonObject;
    const unchanged = valuesEqual(live, obj);
    this.doUpdate(live, merged, managers, manager, force, unchanged && merged !== null);
    return { object: unchanged ? undefined : obj, managers };
  }

  /**
   * Removes what the applier owned last time and no longer applies, unless another manager owns it;
   * fields the applier never owned stay ("Field management" rule 6).
   */
  private prune(merged: JsonValue, managers: ManagerSets, lastSet: VersionedSet | undefined, applied: FieldSet): JsonValue {
    if (!lastSet || lastSet.set.empty()) return merged;
    const named = (s: FieldSet) => ensureNamedFieldsAreMembers(s, this.root);
    // The applier applies again everything it applied last time (a re-apply, a value change): every path
    // of the last set, and every parent of one, is owned by the new configuration (a set built by
    // toFieldSet names its list items and map entries, and named() adds the struct fields above them),
    // so none of the three steps below can remove anything: the result is `merged` as removeItems of
    // nothing returns it.
    if (lastSet.set === applied || lastSet.set.difference(named(applied)).empty()) return removeItems(this.root, merged, new FieldSet());
    const last = named(lastSet.set);
    let pruned = removeItems(this.root, merged, last);
    // add back what someone (including the applier's new configuration) still owns
    let managed = new FieldSet();
    for (const vs of managers.values()) managed = managed.union(vs.set);
    const mergedSet = named(toFieldSet(this.root, merged));
    let prunedSet = named(toFieldSet(this.root, pruned));
    pruned = removeItems(this.root, merged, mergedSet.difference(prunedSet.union(named(managed))));
    // add back what the applier did not own (unowned, or owned by updaters only)
    prunedSet = named(toFieldSet(this.root, pruned));
    return removeItems(this.root, merged, mergedSet.difference(prunedSet).intersection(last));
  }
}
