// Managed-fields viewer: a blame view of the selected object (each YAML line with the managers that own it,
// a colour per manager, shared ownership highlighted), every managedFields entry with its decoded fieldsV1,
// and the ownership history of the object from its creation (within the server's retained history), live.
import { useEffect, useMemo, useState } from 'react';
import { usePlayground, type ObjectRef } from '../../playground.js';
import { usePanelTheme } from '../common/ui.js';
import { yamlLines } from '../common/yaml-lines.js';
import { useClusterHistory } from '../../history/use-history.js';
import { timeText } from '../timeline/history-view.js';
import { type KubeObject } from '../timeline/stream.js';
import { entryLabel, entryPaths, formatPath, lineOwners, managerColour, parseElement, unresolvedPaths, withoutManagedFields, type ManagedFieldsEntry } from './fields.js';
import { ownershipChanges } from './history.js';

const SOURCE = 'managed-fields';

interface Version {
  rv: string;
  /** ADDED, MODIFIED, DELETED, or BASE: the object as it was when the retained history starts. */
  type: string;
  /** Time of the write, from the managedFields entry that made it (none for a deletion). */
  time?: string;
  object: KubeObject;
}

function refKey(r: ObjectRef | undefined): string {
  return r ? `${r.groupVersion}|${r.resource}|${r.namespace ?? ''}|${r.name}` : '';
}

/**
 * Every version of one object in the cluster's stored history (src/ui/history): its state when the
 * retained window starts (if it existed then), then each change from its creation on, live.
 */
function useObjectVersions(ref: ObjectRef | undefined): { versions: Version[]; error?: string; deleted: boolean; loading: boolean; start?: number } {
  const h = useClusterHistory();
  const log = h.log;
  const key = refKey(ref);
  return useMemo(() => {
    if (!ref || !log) return { versions: [], deleted: false, loading: h.phase !== 'error', error: h.error };
    const { base, records } = log.versionsOf(ref, ref.namespace, ref.name);
    const versions: Version[] = [];
    if (base) versions.push({ rv: String(base.revision), type: 'BASE', object: base.object });
    for (const r of records) versions.push({ rv: String(r.revision), type: r.type, time: log.managerOf(r)?.time, object: r.object });
    return { versions, deleted: versions[versions.length - 1]?.type === 'DELETED', loading: false, start: log.start };
    // the log is mutated in place; its version says when it changed
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, log, log?.version, h.phase, h.error]);
}

function Chip({ entry, dim }: { entry: ManagedFieldsEntry; dim?: boolean }) {
  return (
    <span className="chip" style={{ background: managerColour(entry.manager ?? ''), opacity: dim ? 0.35 : 1 }} title={entryLabel(entry)}>
      {entry.manager}
      {entry.operation === 'Apply' ? '' : '*'}
    </span>
  );
}

export function ManagedFieldsViewer() {
  const theme = usePanelTheme();
  const selected = usePlayground((s) => s.selected);
  const { versions, error, deleted, loading, start } = useObjectVersions(selected);
  const [chosenRv, setChosenRv] = useState<string>();
  const [focus, setFocus] = useState<string>();
  const [openEntry, setOpenEntry] = useState<number>();
  useEffect(() => {
    setChosenRv(undefined);
    setFocus(undefined);
    setOpenEntry(undefined);
  }, [refKey(selected)]);

  const live = [...versions].reverse().find((v) => v.type !== 'DELETED') ?? versions[versions.length - 1];
  const version = (chosenRv && versions.find((v) => v.rv === chosenRv)) || live;
  const obj = version?.object;
  const entries: ManagedFieldsEntry[] = obj?.metadata?.managedFields ?? [];
  const shown = useMemo(() => (obj ? withoutManagedFields(obj) : undefined), [obj]);
  const lines = useMemo(() => (shown ? yamlLines(shown) : []), [shown]);
  const owners = useMemo(() => (shown ? lineOwners(lines, entries, shown) : []), [lines, entries, shown]);

  if (!selected) {
    return (
      <section className="pp" aria-label="Managed fields" data-testid="managed-fields" data-theme={theme}>
        <h3>Managed fields</h3>
        <p className="pp-muted">Select an object (in the resource browser) to see who owns which field.</p>
        <ResetNote />
      </section>
    );
  }

  return (
    <section className="pp" aria-label="Managed fields" data-testid="managed-fields" data-theme={theme}>
      <div className="pp-toolbar">
        <h3>
          Managed fields of {selected.kind} {selected.namespace ? `${selected.namespace}/` : ''}
          {selected.name}
        </h3>
        {version && (
          <span className="pp-muted">
            showing rv {version.rv}
            {version !== live ? ' (history)' : ' (live)'}
          </span>
        )}
        {version !== live && (
          <button type="button" onClick={() => setChosenRv(undefined)}>
            Back to live
          </button>
        )}
        {deleted && <span className="pp-error">the object was deleted</span>}
        {error && (
          <span role="alert" className="pp-error">
            {error}
          </span>
        )}
      </div>
      {obj && entries.length === 0 && <p className="pp-muted">This object has no managedFields: no manager tracks any of its fields.</p>}
      <div className="pp-two">
        <div className="blame" role="table" aria-label="Blame: each line with its owners" data-testid="blame" tabIndex={0}>
          {lines.map((l, i) => {
            const o = owners[i];
            const shared = o.length > 1;
            const faded = focus !== undefined && !o.some((k) => entries[k]?.manager === focus);
            return (
              <div key={i} role="row" className={`blame-line${shared ? ' shared' : ''}`} style={{ opacity: faded ? 0.45 : 1 }} data-owners={o.map((k) => entries[k]?.manager).join(',')}>
                <span className="ln" role="cell">
                  {i + 1}
                </span>
                <span className="blame-owners" role="cell">
                  {o.map((k) => (
                    <Chip key={k} entry={entries[k]} />
                  ))}
                </span>
                <span role="cell">{l.text}</span>
              </div>
            );
          })}
        </div>
        <div style={{ display: 'flex', flexDirection: 'column', gap: '0.5rem', minWidth: 0 }}>
          <div>
            <h4>Managers ({entries.length})</h4>
            <p className="pp-muted" style={{ margin: 0 }}>
              Click a manager to highlight its lines. <code>*</code> marks Update entries; lines owned by more than one manager are tinted; ● marks an
              owned leaf (the whole value, e.g. an atomic list, belongs to the manager).
            </p>
            <ul style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="managers">
              {entries.map((e, i) => {
                const paths = entryPaths(e);
                const missing = shown ? unresolvedPaths(e, shown) : [];
                return (
                  <li key={i} style={{ borderBottom: '1px solid var(--pp-line)', padding: '3px 0' }}>
                    <div className="pp-toolbar">
                      <button type="button" aria-pressed={focus === e.manager} onClick={() => setFocus(focus === e.manager ? undefined : e.manager)} style={{ borderLeft: `6px solid ${managerColour(e.manager ?? '')}` }}>
                        {e.manager}
                      </button>
                      <span>{e.operation}</span>
                      <span className="pp-mono">{e.apiVersion}</span>
                      {e.subresource && <span>subresource: {e.subresource}</span>}
                      <span className="pp-muted">{e.time}</span>
                      <span className="pp-muted">{paths.length} fields</span>
                      <button type="button" aria-expanded={openEntry === i} onClick={() => setOpenEntry(openEntry === i ? undefined : i)}>
                        fieldsV1
                      </button>
                    </div>
                    {openEntry === i && (
                      <div>
                        <div className="pp-tree pp-mono" data-testid="fieldsv1-tree" aria-label="fieldsV1 decoded">
                          <FieldsTree node={e.fieldsV1 ?? {}} />
                        </div>
                        <details>
                          <summary>raw fieldsV1</summary>
                          <pre data-testid="fieldsv1">{JSON.stringify(e.fieldsV1 ?? {}, null, 2)}</pre>
                        </details>
                        <h4>Paths</h4>
                        <pre>{paths.join('\n')}</pre>
                        {missing.length > 0 && <p className="pp-muted">Listed but not in this version of the object: {missing.join(', ')}</p>}
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
          <div>
            <h4>
              Ownership history ({versions.length} versions{start !== undefined ? ` in the stored history since revision ${start}` : ''})
            </h4>
            {loading && <p className="pp-muted">Reading the stored history…</p>}
            {!loading && versions.length === 0 && <p className="pp-muted">No version of this object in the retained history.</p>}
            <ol style={{ margin: 0, paddingLeft: '1.2rem' }} data-testid="history">
              {versions.map((v, i) => {
                // a creation shows what each manager set; later versions what changed hands
                const first = i === 0 && v.type !== 'BASE';
                const changes = ownershipChanges(i === 0 ? undefined : versions[i - 1].object.metadata?.managedFields, v.type === 'DELETED' ? [] : v.object.metadata?.managedFields);
                return (
                  <li key={`${v.rv}-${v.type}`} data-type={v.type}>
                    <button type="button" className="link" aria-current={v === version} onClick={() => setChosenRv(v.rv)} style={{ border: 'none', background: 'none', padding: 0 }}>
                      {v.type === 'BASE' ? `rv ${v.rv}: as the retained history starts` : `${timeText(v.time)} ${v.type} rv ${v.rv}`}
                    </button>
                    {(i > 0 || first) && (
                      <ul style={{ margin: 0, paddingLeft: '1rem' }}>
                        {changes.length === 0 && <li className="pp-muted">no ownership change</li>}
                        {changes.map((c) => (
                          <li key={c.label}>
                            <span style={{ color: managerColour(c.manager) }}>■</span> {c.label} {c.status !== 'changed' ? `(${c.status}) ` : ''}
                            {c.gained.length > 0 && <span className="pp-mono">+{c.gained.join(', +')} </span>}
                            {c.lost.length > 0 && <span className="pp-mono pp-error">−{c.lost.join(', −')}</span>}
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                );
              })}
            </ol>
          </div>
        </div>
      </div>
      <ResetNote />
    </section>
  );
}

/** fieldsV1 as a tree of decoded path elements: `f:name` as `.name`, `k:{..}` as `[key=value]`, `.` as the node itself. */
function FieldsTree({ node }: { node: unknown }) {
  if (typeof node !== 'object' || node === null) return null;
  const keys = Object.keys(node as Record<string, unknown>);
  if (keys.length === 0) return null;
  return (
    <ul>
      {keys.map((k) => {
        const child = (node as Record<string, unknown>)[k];
        const el = k === '.' ? undefined : parseElement(k);
        const label = k === '.' ? '(this item itself)' : el ? formatPath([el]) : `${k} (not understood)`;
        const leaf = typeof child === 'object' && child !== null && Object.keys(child).length === 0;
        return (
          <li key={k} title={k}>
            {label}
            {leaf && k !== '.' ? ' ●' : ''}
            <FieldsTree node={child} />
          </li>
        );
      })}
    </ul>
  );
}

function ResetNote() {
  return (
    <details className="pp-note">
      <summary>Resetting managedFields: <code>[{'{}'}]</code> versus <code>[]</code></summary>
      <p>
        A write that is not an apply (create, update, or a JSON/merge/strategic patch) may set <code>metadata.managedFields</code>. Setting it
        to a list holding one empty entry, <code>[{'{}'}]</code>, clears all field tracking: the stored object has no managedFields
        afterwards (the spec&apos;s update and patch rule 8).
      </p>
      <p>
        Setting it to the empty list <code>[]</code> is, per the spec and the public documentation, <em>not</em> a reset: the server treats
        it as &ldquo;no change requested&rdquo; and keeps tracking the fields as usual. The v1.33 server code also clears tracking for{' '}
        <code>[]</code>; this playground follows the spec, so <code>[]</code> here keeps the entries (see docs/design.md 7). Try both with a JSON
        patch and watch this panel.
      </p>
    </details>
  );
}
