// Ownership history across the versions of one object: which paths each manager gained or lost. Pure.
import { entryLabel, entryPaths, type ManagedFieldsEntry } from './fields.js';

export interface OwnershipChange {
  label: string;
  manager: string;
  gained: string[];
  lost: string[];
  /** The entry is new in this version, or was removed from it. */
  status: 'new' | 'removed' | 'changed';
}

function byLabel(entries: ManagedFieldsEntry[] | undefined): Map<string, ManagedFieldsEntry> {
  return new Map((entries ?? []).map((e) => [entryLabel(e) + (e.apiVersion ? ` ${e.apiVersion}` : ''), e]));
}

/** Per manager entry, the field paths gained and lost from `before` to `after` (entries with no change omitted). */
export function ownershipChanges(before: ManagedFieldsEntry[] | undefined, after: ManagedFieldsEntry[] | undefined): OwnershipChange[] {
  const a = byLabel(before);
  const b = byLabel(after);
  const out: OwnershipChange[] = [];
  for (const label of new Set([...a.keys(), ...b.keys()])) {
    const pa = new Set(a.has(label) ? entryPaths(a.get(label)!) : []);
    const pb = new Set(b.has(label) ? entryPaths(b.get(label)!) : []);
    const gained = [...pb].filter((p) => !pa.has(p));
    const lost = [...pa].filter((p) => !pb.has(p));
    const status = !a.has(label) ? 'new' : !b.has(label) ? 'removed' : 'changed';
    if (gained.length === 0 && lost.length === 0 && status === 'changed') continue;
    out.push({ label, manager: (b.get(label) ?? a.get(label))!.manager ?? '', gained, lost, status });
  }
  return out;
}
