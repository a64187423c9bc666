// Watch timeline. It opens on the cluster's stored history (history-view.tsx: every change from the start
// of the server's retained window, the same after a reload); "Watch a collection" is the hands-on watch:
// subscribe to any collection with selectors and resourceVersion options, read the chunked
// JSON stream, and list every event (type, kind/name, resourceVersion, time, the manager that caused it) in a
// virtualised list. Expanding an event shows the object and a diff against the previous version of the same
// object. Stream ends (reconnect from the last resourceVersion) and 410 Gone (relist) appear as markers.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { usePlayground, usePlaygroundStore } from '../../playground.js';
import { diffLines, diffStats, splitLines } from '../common/diff.js';
import { clockText, errorText, fetchJson, useFrameTick, VirtualList, usePanelTheme } from '../common/ui.js';
import { readWatch, sleep } from '../common/watch.js';
import { yamlText } from '../common/yaml-lines.js';
import { withoutManagedFields } from '../managed-fields/fields.js';
import { discover, type ApiResource } from '../browser/discovery.js';
import { EventTypeChecks, StoredHistoryTimeline } from './history-view.js';
import { collectionPath, filterEntries, TimelineModel, watchQuery, type TimelineEntry, type WatchOptions } from './stream.js';

const SOURCE = 'timeline';
const ROW_HEIGHT = 24;
const EVENT_TYPES = ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR', 'MARKER'] as const;

export interface WatchTimelineProps {
  /** `<groupVersion>/<resource>`, default `v1/configmaps`. */
  defaultResource?: string;
  /** Default namespace ('' = all namespaces). */
  defaultNamespace?: string;
}

function statusMessage(body: unknown, status: number): string {
  const m = (body as { message?: unknown } | undefined)?.message;
  return `${status}${typeof m === 'string' ? `: ${m}` : ''}`;
}

/** The panel: the stored history, or a watch of one collection (both stay mounted while switching). */
export function WatchTimeline(props: WatchTimelineProps = {}) {
  const theme = usePanelTheme();
  const [mode, setMode] = useState<'history' | 'watch'>('history');
  return (
    <div className="pp" data-theme={theme}>
      <div className="pp-toolbar" role="group" aria-label="Timeline mode">
        <button type="button" aria-pressed={mode === 'history'} onClick={() => setMode('history')}>
          Stored history
        </button>
        <button type="button" aria-pressed={mode === 'watch'} onClick={() => setMode('watch')}>
          Watch a collection
        </button>
      </div>
      <section className="pp" aria-label="Stored history" hidden={mode !== 'history'} data-theme={theme}>
        <StoredHistoryTimeline />
      </section>
      <div hidden={mode !== 'watch'}>
        <CollectionWatch {...props} />
      </div>
    </div>
  );
}

function CollectionWatch({ defaultResource = 'v1/configmaps', defaultNamespace = 'default' }: WatchTimelineProps = {}) {
  const theme = usePanelTheme();
  const store = usePlaygroundStore();
  const selectedObject = usePlayground((s) => s.selected);
  const ids = { res: useId(), ns: useId(), ls: useId(), fs: useId(), rvm: useId(), rv: useId(), filter: useId(), timeout: useId() };
  const [resources, setResources] = useState<ApiResource[]>([]);
  const [resKey, setResKey] = useState(defaultResource);
  const [namespace, setNamespace] = useState(defaultNamespace);
  const [labelSelector, setLabelSelector] = useState('');
  const [fieldSelector, setFieldSelector] = useState('');
  const [rvMode, setRvMode] = useState<WatchOptions['rvMode']>('unset');
  const [rv, setRv] = useState('');
  const [bookmarks, setBookmarks] = useState(true);
  const [initialEvents, setInitialEvents] = useState(false);
  const [timeoutSeconds, setTimeoutSeconds] = useState('');
  const [running, setRunning] = useState(false);
  const [connState, setConnState] = useState('idle');
  const [paused, setPaused] = useState(false);
  const [filter, setFilter] = useState('');
  const [types, setTypes] = useState<Set<string>>(() => new Set(EVENT_TYPES));
  const [selectedSeq, setSelectedSeq] = useState<number>();
  const [hideManaged, setHideManaged] = useState(true);
  const model = useRef(new TimelineModel());
  const abort = useRef<AbortController | undefined>(undefined);
  const [tick, bump] = useFrameTick();
  const frozen = useRef<TimelineEntry[] | undefined>(undefined);

  useEffect(() => {
    let live = true;
    discover(store, SOURCE).then(
      (g) => live && setResources(g.flatMap((x) => x.resources).filter((r) => r.verbs.includes('watch'))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [store]);

  const resource = resources.find((r) => `${r.groupVersion}/${r.name}` === resKey);
  const [gvPart, resPart] = useMemo(() => {
    const i = resKey.lastIndexOf('/');
    return [resKey.slice(0, i), resKey.slice(i + 1)];
  }, [resKey]);
  const namespaced = resource ? resource.namespaced : true;

  const stop = useCallback(() => {
    abort.current?.abort();
    abort.current = undefined;
    setRunning(false);
    setConnState('stopped');
  }, []);

  useEffect(() => () => abort.current?.abort(), []);

  const start = useCallback(() => {
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    const m = model.current;
    const opts: WatchOptions = {
      labelSelector: labelSelector.trim() || undefined,
      fieldSelector: fieldSelector.trim() || undefined,
      rvMode,
      resourceVersion: rv.trim() || undefined,
      allowWatchBookmarks: bookmarks,
      sendInitialEvents: initialEvents,
      timeoutSeconds: Number(timeoutSeconds) > 0 ? Math.floor(Number(timeoutSeconds)) : undefined,
    };
    const base = collectionPath(gvPart, resPart, namespaced && namespace ? namespace : undefined);
    setRunning(true);
    (async () => {
      let resume: string | undefined;
      let failures = 0;
      while (!ctl.signal.aborted) {
        const path = `${base}?${watchQuery(opts, resume)}`;
        m.marker(resume === undefined ? 'connect' : 'reconnect', `${resume === undefined ? 'watching' : 'reconnected'}: GET ${path}`, Date.now());
        bump();
        setConnState('streaming');
        let gone: TimelineEntry | undefined;
        let result;
        try {
          result = await readWatch(store, path, SOURCE, ctl.signal, (ev) => {
            const e = m.ingest(ev, Date.now());
            if (TimelineModel.isGone(e)) gone = e;
            bump();
          });
        } catch (e) {
          m.marker('error', `stream failed: ${errorText(e)}`, Date.now());
          bump();
          result = { outcome: 'end' as const, status: 0 };
          failures++;
        }
        if (ctl.signal.aborted || result.outcome === 'aborted') break;
        if (result.outcome === 'http' && result.status !== 410) {
          m.marker('error', `watch refused: ${statusMessage(result.body, result.status)}`, Date.now());
          bump();
          // A bad request (selector, options) will not get better by retrying.
          if (result.status >= 400 && result.status < 500 && result.status !== 429) break;
          failures++;
          await sleep(Math.min(10_000, 500 * 2 ** failures), ctl.signal);
          continue;
        }
        if (gone || result.status === 410) {
          m.marker('gone', `410 Gone: resourceVersion ${resume ?? opts.resourceVersion ?? m.lastResourceVersion ?? ''} is too old; relisting`, Date.now());
          bump();
          setConnState('relisting');
          try {
            const q = new URLSearchParams();
            if (opts.labelSelector) q.set('labelSelector', opts.labelSelector);
            if (opts.fieldSelector) q.set('fieldSelector', opts.fieldSelector);
            const list = await fetchJson<{ metadata?: { resourceVersion?: string }; items?: unknown[] }>(store, `${base}${q.size ? `?${q}` : ''}`, SOURCE);
            resume = list.metadata?.resourceVersion;
            m.marker('relist', `relisted ${list.items?.length ?? 0} objects at resourceVersion ${resume}; watching from there`, Date.now());
            failures = 0;
          } catch (e) {
            m.marker('error', `relist failed: ${errorText(e)}`, Date.now());
            failures++;
            await sleep(Math.min(10_000, 500 * 2 ** failures), ctl.signal);
          }
          bump();
          continue;
        }
        // The server ended the stream (timeout, a restarted worker): resume from the newest resourceVersion.
        resume = m.lastResourceVersion ?? resume;
        m.marker('end', `stream ended; reconnecting from resourceVersion ${resume ?? '(unset)'}`, Date.now());
        bump();
        setConnState('reconnecting');
        await sleep(failures > 0 ? Math.min(10_000, 500 * 2 ** failures) : 200, ctl.signal);
      }
      if (abort.current === ctl) {
        abort.current = undefined;
        setRunning(false);
        setConnState('stopped');
      }
    })();
  }, [store, labelSelector, fieldSelector, rvMode, rv, bookmarks, initialEvents, timeoutSeconds, gvPart, resPart, namespaced, namespace, bump]);

  const togglePause = () => {
    if (!paused) frozen.current = model.current.entries.slice();
    else frozen.current = undefined;
    setPaused(!paused);
  };

  const clear = () => {
    model.current.clear();
    frozen.current = paused ? [] : undefined;
    setSelectedSeq(undefined);
    bump();
  };

  const all = paused && frozen.current ? frozen.current : model.current.entries;
  // eslint-style note: `tick` changes when new events arrive; the entries array is mutated in place.
  const shown = useMemo(
    () => filterEntries(all, { text: filter, types: types.size === EVENT_TYPES.length ? undefined : types }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [all, filter, types, tick, all.length],
  );
  const selected = selectedSeq === undefined ? undefined : all.find((e) => e.seq === selectedSeq);
  const newWhilePaused = paused && frozen.current ? model.current.entries.length - frozen.current.length : 0;

  const renderRow = (i: number) => {
    const e = shown[i];
    const sel = e.seq === selectedSeq;
    return (
      <div
        key={e.seq}
        role="option"
        className="tl-row"
        aria-selected={sel}
        aria-posinset={i + 1}
        aria-setsize={shown.length}
        data-type={e.type}
        onClick={() => setSelectedSeq(sel ? undefined : e.seq)}
        onKeyDown={(ev) => {
          if (ev.key === 'Enter' || ev.key === ' ') {
            ev.preventDefault();
            setSelectedSeq(sel ? undefined : e.seq);
          } else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
            // Rows around the focused one are always rendered (overscan); focusing scrolls it into view.
            ev.preventDefault();
            const next = (ev.key === 'ArrowDown' ? ev.currentTarget.nextElementSibling : ev.currentTarget.previousElementSibling) as HTMLElement | null;
            next?.focus();
          }
        }}
        tabIndex={0}
        title={e.text}
      >
        <span className="pp-muted">{clockText(e.at)}</span>
        <span className={`tl-type tl-${e.type}`}>{e.type === 'MARKER' ? (e.marker ?? '').toUpperCase() : e.type}</span>
        <span>
          {e.type === 'MARKER' || e.type === 'ERROR'
            ? e.text
            : `${e.kind ?? ''}${e.name ? ` ${e.namespace ? `${e.namespace}/` : ''}${e.name}` : ''}${e.text ? ` (${e.text})` : ''}`}
        </span>
        <span>{e.resourceVersion ? `rv ${e.resourceVersion}` : ''}</span>
        <span title={e.manager ? `${e.manager.manager} ${e.manager.operation}${e.manager.subresource ? ` /${e.manager.subresource}` : ''} at ${e.manager.time}` : undefined}>
          {e.manager ? `${e.manager.manager} (${e.manager.operation})` : ''}
        </span>
      </div>
    );
  };

  return (
    <section className="pp" aria-label="Watch timeline" data-testid="watch-timeline" data-theme={theme}>
      <div className="pp-toolbar">
        <h3>Watch</h3>
        <label htmlFor={ids.res}>Resource</label>
        <select id={ids.res} value={resKey} onChange={(e) => setResKey(e.target.value)} disabled={running}>
          {!resource && <option value={resKey}>{resKey}</option>}
          {resources.map((r) => (
            <option key={`${r.groupVersion}/${r.name}`} value={`${r.groupVersion}/${r.name}`}>
              {r.name} ({r.groupVersion})
            </option>
          ))}
        </select>
        {namespaced && (
          <>
            <label htmlFor={ids.ns}>Namespace</label>
            <input id={ids.ns} value={namespace} onChange={(e) => setNamespace(e.target.value)} placeholder="all namespaces" size={12} disabled={running} />
          </>
        )}
        {selectedObject && (
          <button
            type="button"
            disabled={running}
            title="Watch only the object selected in the browser (fieldSelector=metadata.name)"
            onClick={() => {
              setResKey(`${selectedObject.groupVersion}/${selectedObject.resource}`);
              setNamespace(selectedObject.namespace ?? '');
              setFieldSelector(`metadata.name=${selectedObject.name}`);
            }}
          >
            Watch {selectedObject.name}
          </button>
        )}
        <label htmlFor={ids.ls}>Label selector</label>
        <input id={ids.ls} value={labelSelector} onChange={(e) => setLabelSelector(e.target.value)} placeholder="app=web" size={12} disabled={running} />
        <label htmlFor={ids.fs}>Field selector</label>
        <input id={ids.fs} value={fieldSelector} onChange={(e) => setFieldSelector(e.target.value)} placeholder="metadata.name=x" size={14} disabled={running} />
      </div>
      <div className="pp-toolbar">
        <label htmlFor={ids.rvm}>resourceVersion</label>
        <select id={ids.rvm} value={rvMode} onChange={(e) => setRvMode(e.target.value as WatchOptions['rvMode'])} disabled={running}>
          <option value="unset">unset (list state, then changes)</option>
          <option value="0">0 (any cached state)</option>
          <option value="rv">from a given version</option>
        </select>
        {rvMode === 'rv' && <input id={ids.rv} aria-label="given resourceVersion" value={rv} onChange={(e) => setRv(e.target.value)} size={8} disabled={running} />}
        <label>
          <input type="checkbox" checked={bookmarks} onChange={(e) => setBookmarks(e.target.checked)} disabled={running} /> allowWatchBookmarks
        </label>
        <label title="sendInitialEvents=true&resourceVersionMatch=NotOlderThan">
          <input type="checkbox" checked={initialEvents} onChange={(e) => setInitialEvents(e.target.checked)} disabled={running} /> sendInitialEvents
        </label>
        <label htmlFor={ids.timeout} title="The server ends the stream after this many seconds; the timeline reconnects from the last resourceVersion">
          timeoutSeconds
        </label>
        <input id={ids.timeout} value={timeoutSeconds} onChange={(e) => setTimeoutSeconds(e.target.value)} size={4} inputMode="numeric" placeholder="none" disabled={running} />
        {running ? (
          <button type="button" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="button" onClick={start}>
            Start watch
          </button>
        )}
        <button type="button" aria-pressed={paused} onClick={togglePause}>
          {paused ? 'Resume view' : 'Pause view'}
        </button>
        <button type="button" onClick={clear}>
          Clear
        </button>
        <span className="pp-muted" role="status" data-testid="timeline-status">
          {connState} · {model.current.entries.length} entries{newWhilePaused > 0 ? ` · ${newWhilePaused} new while paused` : ''}
          {model.current.lastResourceVersion ? ` · last rv ${model.current.lastResourceVersion}` : ''}
        </span>
      </div>
      <div className="pp-toolbar">
        <label htmlFor={ids.filter}>Filter</label>
        <input id={ids.filter} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="name, kind, manager, rv" />
        <EventTypeChecks types={EVENT_TYPES} shown={types} onChange={setTypes} label={(t) => (t === 'MARKER' ? 'connection' : t)} />
        <span className="pp-muted">{shown.length} shown</span>
      </div>
      <VirtualList count={shown.length} rowHeight={ROW_HEIGHT} height={320} renderRow={renderRow} follow={!paused} label="Watch events" testId="timeline-list" />
      {selected && <EventDetail entry={selected} hideManaged={hideManaged} setHideManaged={setHideManaged} />}
    </section>
  );
}

function EventDetail({ entry, hideManaged, setHideManaged }: { entry: TimelineEntry; hideManaged: boolean; setHideManaged: (v: boolean) => void }) {
  const strip = (o: unknown) => (hideManaged ? withoutManagedFields(o) : o);
  const current = entry.object === undefined ? '' : yamlText(strip(entry.object));
  const previous = entry.previous ? yamlText(strip(entry.previous)) : undefined;
  const diff = useMemo(() => (previous === undefined ? undefined : diffLines(splitLines(previous), splitLines(current))), [previous, current]);
  const stats = diff && diffStats(diff);
  return (
    <div data-testid="timeline-detail">
      <div className="pp-toolbar">
        <strong>
          {entry.type} {entry.kind} {entry.name} {entry.resourceVersion && `rv ${entry.resourceVersion}`}
        </strong>
        {entry.manager && (
          <span>
            caused by <strong>{entry.manager.manager}</strong> ({entry.manager.operation}
            {entry.manager.subresource ? `, ${entry.manager.subresource}` : ''}, {entry.manager.time})
          </span>
        )}
        <label>
          <input type="checkbox" checked={hideManaged} onChange={(e) => setHideManaged(e.target.checked)} /> hide managedFields
        </label>
      </div>
      <div className="tl-detail">
        <div>
          <h4>Object</h4>
          <pre data-testid="timeline-object">{current || entry.text}</pre>
        </div>
        <div>
          <h4>
            {diff ? `Diff against rv ${entry.previous?.metadata?.resourceVersion} (+${stats!.added} −${stats!.removed})` : 'Diff'}
          </h4>
          {diff ? (
            <pre data-testid="timeline-diff">
              {diff.map((l, i) => (
                <div key={i} className={l.op === 'add' ? 'diff-add' : l.op === 'del' ? 'diff-del' : undefined}>
                  {l.op === 'add' ? '+ ' : l.op === 'del' ? '- ' : '  '}
                  {l.text}
                </div>
              ))}
            </pre>
          ) : (
            <p className="pp-muted">No earlier version of this object in this timeline.</p>
          )}
        </div>
      </div>
    </div>
  );
}
