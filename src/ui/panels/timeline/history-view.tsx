// The timeline of the cluster's stored history: every change of every resource type from the start of
// the retained window on (src/ui/history), then live ones, in revision order. It comes from the server's
// history, so it is the same after a reload. Rows are virtualised; filtering walks the records once per
// change of the filter or of the history, never replaying the history.
import { useId, useMemo, useState } from 'react';
import { useClusterHistory } from '../../history/use-history.js';
import type { HistoryLog, HistoryRecord } from '../../history/log.js';
import { diffLines, diffStats, splitLines } from '../common/diff.js';
import { VirtualList } from '../common/ui.js';
import { yamlText } from '../common/yaml-lines.js';
import { withoutManagedFields } from '../managed-fields/fields.js';

const ROW_HEIGHT = 24;
const TYPES = ['ADDED', 'MODIFIED', 'DELETED'] as const;

/** `2026-11-26T10:59:01Z` as the local `10:59:01` (the date when it is not today). */
export function timeText(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  const t = `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  return d.toDateString() === new Date().toDateString() ? t : `${d.toLocaleDateString()} ${t}`;
}

/** Records matching a free-text filter (kind, name, namespace, manager, revision, type) and types. */
export function filterRecords(log: HistoryLog, text: string, types: Set<string>): HistoryRecord[] {
  const t = text.trim().toLowerCase();
  if (!t && types.size === TYPES.length) return log.records;
  return log.records.filter((r) => {
    if (!types.has(r.type)) return false;
    if (!t) return true;
    const m = r.object.metadata ?? {};
    const hay = `${r.type} ${r.object.kind ?? r.res.kind} ${m.namespace ? `${m.namespace}/` : ''}${m.name ?? ''} ${r.revision} ${log.managerOf(r)?.manager ?? ''}`.toLowerCase();
    return hay.includes(t);
  });
}

export function StoredHistoryTimeline() {
  const h = useClusterHistory();
  const ids = { filter: useId() };
  const [filter, setFilter] = useState('');
  const [types, setTypes] = useState<Set<string>>(() => new Set(TYPES));
  const [selectedSeq, setSelectedSeq] = useState<number>();
  const [hideManaged, setHideManaged] = useState(true);
  const log = h.log;
  const shown = useMemo(
    () => (log ? filterRecords(log, filter, types) : []),
    // the log is mutated in place; its version says when it changed
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [log, log?.version, filter, types],
  );
  const selected = selectedSeq === undefined ? undefined : shown.find((r) => r.seq === selectedSeq);
  const since = log?.startTime();

  const renderRow = (i: number) => {
    const r = shown[i];
    const sel = r.seq === selectedSeq;
    const m = r.object.metadata ?? {};
    const manager = log?.managerOf(r);
    return (
      <div
        key={r.seq}
        role="option"
        className="tl-row"
        aria-selected={sel}
        data-type={r.type}
        tabIndex={0}
        onClick={() => setSelectedSeq(sel ? undefined : r.seq)}
        onKeyDown={(ev) => {
          if (ev.key === 'Enter' || ev.key === ' ') {
            ev.preventDefault();
            setSelectedSeq(sel ? undefined : r.seq);
          } else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
            ev.preventDefault();
            const next = (ev.key === 'ArrowDown' ? ev.currentTarget.nextElementSibling : ev.currentTarget.previousElementSibling) as HTMLElement | null;
            next?.focus();
          }
        }}
      >
        <span className="pp-muted">{timeText(manager?.time)}</span>
        <span className={`tl-type tl-${r.type}`}>{r.resync ? `${r.type}*` : r.type}</span>
        <span>
          {r.object.kind ?? r.res.kind} {m.namespace ? `${m.namespace}/` : ''}
          {m.name}
        </span>
        <span>rv {r.revision}</span>
        <span title={manager ? `${manager.manager} ${manager.operation}${manager.subresource ? ` /${manager.subresource}` : ''} at ${manager.time}` : undefined}>
          {manager ? `${manager.manager} (${manager.operation})` : ''}
        </span>
      </div>
    );
  };

  return (
    <div data-testid="history-timeline">
      <div className="pp-toolbar">
        <strong data-testid="history-window">
          {h.phase === 'live' && log
            ? `history since ${since ? timeText(since) : 'the window start'}, revision ${log.start}`
            : h.phase === 'error'
              ? 'history unavailable'
              : 'reading the stored history…'}
        </strong>
        <span className="pp-muted" role="status" data-testid="history-status">
          {h.phase === 'live' && log ? `${log.records.length} changes up to rv ${log.latestRevision}; live` : h.phase}
          {h.error ? ` · ${h.error}` : ''}
        </span>
        <span className="pp-muted" title="The server keeps the changes of the last minutes (older revisions are compacted); a watch from the oldest kept revision replays them all. Read as the cluster administrator.">
          (from the server&apos;s retained history: a watch per resource type from revision {h.window?.start ?? '…'})
        </span>
      </div>
      <div className="pp-toolbar">
        <label htmlFor={ids.filter}>Filter</label>
        <input id={ids.filter} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="name, kind, manager, rv" />
        <EventTypeChecks types={TYPES} shown={types} onChange={setTypes} />
        <span className="pp-muted">{shown.length} shown</span>
        {h.skipped.length > 0 && (
          <span className="pp-muted" title={h.skipped.join('\n')}>
            {h.skipped.length} resource types unreadable
          </span>
        )}
      </div>
      <VirtualList count={shown.length} rowHeight={ROW_HEIGHT} height={320} renderRow={renderRow} follow label="Stored history" testId="history-list" />
      {selected && <RecordDetail record={selected} log={log!} hideManaged={hideManaged} setHideManaged={setHideManaged} />}
    </div>
  );
}

function RecordDetail({ record, log, hideManaged, setHideManaged }: { record: HistoryRecord; log: HistoryLog; hideManaged: boolean; setHideManaged: (v: boolean) => void }) {
  const strip = (o: unknown) => (hideManaged ? withoutManagedFields(o) : o);
  const current = yamlText(strip(record.object));
  const previous = record.previous ? yamlText(strip(record.previous)) : undefined;
  const diff = useMemo(() => (previous === undefined ? undefined : diffLines(splitLines(previous), splitLines(current))), [previous, current]);
  const stats = diff && diffStats(diff);
  const manager = log.managerOf(record);
  return (
    <div data-testid="history-detail">
      <div className="pp-toolbar">
        <strong>
          {record.type} {record.object.kind} {record.object.metadata?.name} rv {record.revision}
        </strong>
        {manager && (
          <span>
            caused by <strong>{manager.manager}</strong> ({manager.operation}
            {manager.subresource ? `, ${manager.subresource}` : ''}, {manager.time})
          </span>
        )}
        {record.resync && <span className="pp-muted">found by a relist: the changes between were compacted before they were read</span>}
        <label>
          <input type="checkbox" checked={hideManaged} onChange={(e) => setHideManaged(e.target.checked)} /> hide managedFields
        </label>
      </div>
      <div className="tl-detail">
        <div>
          <h4>Object</h4>
          <pre>{current}</pre>
        </div>
        <div>
          <h4>{diff ? `Diff against rv ${record.previous?.metadata?.resourceVersion} (+${stats!.added} −${stats!.removed})` : 'Diff'}</h4>
          {diff ? (
            <pre data-testid="history-diff">
              {diff.map((l, i) => (
                <div key={i} className={l.op === 'add' ? 'diff-add' : l.op === 'del' ? 'diff-del' : undefined}>
                  {l.op === 'add' ? '+ ' : l.op === 'del' ? '- ' : '  '}
                  {l.text}
                </div>
              ))}
            </pre>
          ) : (
            <p className="pp-muted">Created here: no earlier version in the retained history.</p>
          )}
        </div>
      </div>
    </div>
  );
}

/** The event-type checkboxes of a timeline's filter bar: one per type, ticked when shown. */
export function EventTypeChecks({ types, shown, onChange, label = (t) => t }: { types: readonly string[]; shown: Set<string>; onChange: (next: Set<string>) => void; label?: (t: string) => string }) {
  return (
    <>
      {types.map((t) => (
        <label key={t}>
          <input
            type="checkbox"
            checked={shown.has(t)}
            onChange={(e) => {
              const next = new Set(shown);
              if (e.target.checked) next.add(t);
              else next.delete(t);
              onChange(next);
            }}
          />{' '}
          {label(t)}
        </label>
      ))}
    </>
  );
}
