// The time slider: pick any revision of the retained history and see the cluster as it was then, every
// object of every resource type, read-only, each marked and diffed against now. The past state is rebuilt
// from the stored history the panels already hold (log.ts: the state at the window's start plus the
// changes up to the revision), once per revision picked. Nothing here writes: the past view has no
// action that sends a request, and "Back to live" (or Escape) leaves it.
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { usePanelTheme, VirtualList } from '../panels/common/ui.js';
import { diffLines, diffStats, splitLines } from '../panels/common/diff.js';
import { yamlText } from '../panels/common/yaml-lines.js';
import { withoutManagedFields } from '../panels/managed-fields/fields.js';
import { timeText } from '../panels/timeline/history-view.js';
import { useClusterHistory } from './use-history.js';
import { pastView, revisionStops, type PastRow } from './past.js';
import type { HistoryLog } from './log.js';
import './history.css';

const ROW_HEIGHT = 24;

export function HistoryPanel() {
  const theme = usePanelTheme();
  const h = useClusterHistory();
  const log = h.log;
  // the revisions the slider stops at: the window's start and every revision with a change
  const stops = useMemo(
    () => (log ? revisionStops(log) : []),
    // the log is mutated in place; its version says when it changed
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [log, log?.version],
  );
  const [picked, setPicked] = useState<number>();
  const past = picked !== undefined && log !== undefined;

  if (!log) {
    return (
      <section className="pp" aria-label="History" data-testid="history-panel" data-theme={theme}>
        <h3>History</h3>
        <p className="pp-muted" role="status">
          {h.phase === 'error' ? `The stored history could not be read: ${h.error}` : 'Reading the stored history…'}
        </p>
      </section>
    );
  }
  const index = picked === undefined ? stops.length - 1 : nearestStop(stops, picked);
  return (
    <section
      className={`pp${past ? ' history-past' : ''}`}
      aria-label="History"
      data-testid="history-panel"
      data-theme={theme}
      data-past={past ? String(picked) : undefined}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && past) {
          e.stopPropagation();
          setPicked(undefined);
        }
      }}
    >
      <Slider log={log} stops={stops} index={index} past={past} onPick={(rev) => setPicked(rev)} onLive={() => setPicked(undefined)} />
      {past ? (
        <PastView log={log} revision={picked} />
      ) : (
        <p className="pp-muted">
          Live. Move the slider (or type a revision) to see the cluster as it was at any revision since {timeText(log.startTime()) || 'the window start'}{' '}
          (revision {log.start}); the server keeps about the last five minutes of changes.
        </p>
      )}
    </section>
  );
}

function nearestStop(stops: number[], rev: number): number {
  let i = 0;
  while (i + 1 < stops.length && stops[i + 1] <= rev) i++;
  return i;
}

function Slider(props: { log: HistoryLog; stops: number[]; index: number; past: boolean; onPick: (rev: number) => void; onLive: () => void }) {
  const { log, stops, index, past, onPick, onLive } = props;
  const ids = { range: useId(), rev: useId() };
  const [typed, setTyped] = useState('');
  const at = stops[index];
  return (
    <div className="pp-toolbar history-slider">
      <h3>{past ? 'Past view (read-only)' : 'History: live'}</h3>
      <label htmlFor={ids.range}>Revision</label>
      <input
        id={ids.range}
        type="range"
        min={0}
        max={Math.max(0, stops.length - 1)}
        step={1}
        value={index}
        aria-valuetext={`revision ${at}`}
        onChange={(e) => {
          const i = Number(e.target.value);
          // the right end is now: leaving the past there returns to live
          if (i >= stops.length - 1) onLive();
          else onPick(stops[i]);
        }}
        style={{ flex: '1 1 12rem' }}
        data-testid="history-slider"
      />
      <span className="pp-mono" data-testid="history-revision">
        rv {at}
      </span>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const n = Number(typed);
          if (Number.isInteger(n) && n >= log.start && n <= log.latestRevision) onPick(n);
        }}
      >
        <label htmlFor={ids.rev}>Go to revision</label>{' '}
        <input id={ids.rev} value={typed} onChange={(e) => setTyped(e.target.value)} size={7} inputMode="numeric" placeholder={`${log.start}–${log.latestRevision}`} />
        <button type="submit">Show</button>
      </form>
      <button type="button" onClick={onLive} disabled={!past}>
        Back to live
      </button>
    </div>
  );
}

function PastView({ log, revision }: { log: HistoryLog; revision: number }) {
  const ids = { filter: useId() };
  const [filter, setFilter] = useState('');
  const [changedOnly, setChangedOnly] = useState(false);
  const [selected, setSelected] = useState<string>();
  const deferredRevision = useDeferredValue(revision);
  // rebuilt once per revision (and per change of the live state), not per keystroke of the filter
  const rows = useMemo(
    () => pastView(log, deferredRevision),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [log, log.version, deferredRevision],
  );
  const shown = useMemo(() => {
    const t = filter.trim().toLowerCase();
    return rows.filter((r) => (!changedOnly || r.status !== 'unchanged') && (!t || r.label.toLowerCase().includes(t)));
  }, [rows, filter, changedOnly]);
  const counts = useMemo(() => {
    const c = { unchanged: 0, changed: 0, deleted: 0, created: 0 };
    for (const r of rows) c[r.status]++;
    return c;
  }, [rows]);
  const sel = selected === undefined ? undefined : rows.find((r) => r.key === selected);
  const record = log.records.find((r) => r.revision === revision);
  return (
    <>
      <p className="history-banner" role="status" data-testid="history-banner">
        Past view: the cluster as it was at revision {revision}
        {record ? ` (${timeText(log.managerOf(record)?.time) || 'time unknown'})` : ''}, read-only. Nothing here writes; the other panels and the
        editor still act on the live cluster. Press Escape or “Back to live” to leave.
      </p>
      <div className="pp-toolbar">
        <label htmlFor={ids.filter}>Filter</label>
        <input id={ids.filter} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="kind, namespace/name" />
        <label>
          <input type="checkbox" checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)} /> only what differs from now
        </label>
        <span className="pp-muted" data-testid="history-counts">
          {rows.length - counts.created} objects then · {counts.changed} changed since · {counts.deleted} deleted since · {counts.created} created since
        </span>
      </div>
      <VirtualList
        count={shown.length}
        rowHeight={ROW_HEIGHT}
        height={260}
        label={`Objects at revision ${revision}`}
        testId="history-objects"
        renderRow={(i) => {
          const r = shown[i];
          const isSel = r.key === selected;
          return (
            <div
              key={r.key}
              role="option"
              className="tl-row history-row"
              aria-selected={isSel}
              data-status={r.status}
              tabIndex={0}
              onClick={() => setSelected(isSel ? undefined : r.key)}
              onKeyDown={(ev) => {
                if (ev.key === 'Enter' || ev.key === ' ') {
                  ev.preventDefault();
                  setSelected(isSel ? undefined : r.key);
                }
              }}
            >
              <span className={`history-status history-${r.status}`}>{STATUS_TEXT[r.status]}</span>
              <span>{r.label}</span>
              <span>{r.past ? `rv ${r.past.revision}` : ''}</span>
            </div>
          );
        }}
      />
      {sel && <PastDetail row={sel} revision={revision} />}
    </>
  );
}

const STATUS_TEXT: Record<PastRow['status'], string> = {
  unchanged: 'same now',
  changed: 'changed since',
  deleted: 'deleted since',
  created: 'created since',
};

function PastDetail({ row, revision }: { row: PastRow; revision: number }) {
  const [hideManaged, setHideManaged] = useState(true);
  const strip = (o: unknown) => (hideManaged ? withoutManagedFields(o) : o);
  const then = row.past ? yamlText(strip(row.past.object)) : '';
  const now = row.now ? yamlText(strip(row.now.object)) : '';
  const diff = useMemo(() => diffLines(splitLines(then), splitLines(now)), [then, now]);
  const stats = diffStats(diff);
  return (
    <div data-testid="history-detail-past">
      <div className="pp-toolbar">
        <strong>{row.label}</strong>
        <span className="pp-muted">{STATUS_TEXT[row.status]}</span>
        <label>
          <input type="checkbox" checked={hideManaged} onChange={(e) => setHideManaged(e.target.checked)} /> hide managedFields
        </label>
      </div>
      <div className="tl-detail">
        <div>
          <h4>At revision {revision}</h4>
          <pre data-testid="history-then">{row.past ? then : '(did not exist yet)'}</pre>
        </div>
        <div>
          <h4>
            Diff to now (+{stats.added} −{stats.removed})
          </h4>
          <pre data-testid="history-diff-now">
            {row.status === 'unchanged'
              ? 'no change since'
              : diff.map((l, i) => (
                  <div key={i} className={l.op === 'add' ? 'diff-add' : l.op === 'del' ? 'diff-del' : undefined}>
                    {l.op === 'add' ? '+ ' : l.op === 'del' ? '- ' : '  '}
                    {l.text}
                  </div>
                ))}
          </pre>
        </div>
      </div>
    </div>
  );
}
