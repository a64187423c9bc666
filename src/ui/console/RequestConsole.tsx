// The request console: every request the UI sent (method, path, query, status, duration, source panel);
// the selected one's headers (Warning headers highlighted) and bodies (YAML/JSON); an apply conflict as
// its fields and owners with the three resolutions; and a raw mode that sends any request, like curl.
import { useEffect, useId, useMemo, useState } from 'react';
import { usePlayground, usePlaygroundStore, type LoggedRequest, type PlaygroundStore } from '../playground.js';
import { findDocument, jsonOrUndefined, replaceDocument, splitDocuments, toYaml } from '../editor/actions.js';
import { editorText } from '../editor/state.js';
import { curlForNodeHost } from './curl.js';
import { confirmDialog } from '../confirm/dialog.js';
import { collectionContents, deleteTarget, namespaceContents } from '../confirm/impact.js';
import { DiscoveryCache } from '../editor/discovery.js';
import { adoptFields, conflictResolution, dropFields, parseConflicts, withForce, withoutQuery, type FieldConflict } from './conflicts.js';

function splitPath(path: string): { pathname: string; query: string } {
  const q = path.indexOf('?');
  return q < 0 ? { pathname: path, query: '' } : { pathname: path.slice(0, q), query: path.slice(q + 1) };
}

function header(headers: [string, string][] | undefined, name: string): string | undefined {
  return headers?.find(([k]) => k.toLowerCase() === name)?.[1];
}

function HeaderList({ title, headers }: { title: string; headers: [string, string][] | undefined }) {
  return (
    <div className="headers">
      <h4>{title}</h4>
      {!headers || headers.length === 0 ? (
        <p className="hint">none</p>
      ) : (
        <dl>
          {headers.map(([k, v], i) => {
            const warning = k.toLowerCase() === 'warning';
            return (
              <div key={i} className={warning ? 'warning-header' : undefined} data-testid={warning ? 'warning-header' : undefined}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            );
          })}
        </dl>
      )}
    </div>
  );
}

function Body({ title, text, format }: { title: string; text: string | undefined; format: 'yaml' | 'json' }) {
  const shown = useMemo(() => {
    if (text === undefined || text === '') return undefined;
    const parsed = jsonOrUndefined(text);
    if (parsed === undefined) return text;
    return format === 'json' ? JSON.stringify(parsed, null, 2) : toYaml(parsed);
  }, [text, format]);
  return (
    <div className="body">
      <h4>{title}</h4>
      {shown === undefined ? <p className="hint">no body</p> : <pre tabIndex={0}>{shown}</pre>}
    </div>
  );
}

/** Re-applies `body` (an apply document) to the request's object, logged as the console's. */
async function reapply(store: PlaygroundStore, req: LoggedRequest, body: string, force: boolean): Promise<LoggedRequest | undefined> {
  const id = store.peekNextRequestId();
  const headers: [string, string][] = req.requestHeaders.filter(([k]) => k.toLowerCase() !== 'content-length');
  await store.fetch(force ? withForce(req.path) : req.path, { method: 'PATCH', headers, body }, 'console');
  return store.get().requests.find((r) => r.id === id);
}

/** Puts the resolved manifest into the editor, in place of the document it came from (or as the text). */
function updateEditor(store: PlaygroundStore, doc: unknown): void {
  const yaml = toYaml(doc);
  const text = editorText.get();
  const index = findDocument(text, doc as never);
  if (index >= 0) editorText.set(replaceDocument(text, index, yaml));
  else if (splitDocuments(text).length <= 1) editorText.set(yaml);
  else store.openInEditor(`${text.replace(/\n+$/, '')}\n---\n${yaml}`);
}

function ConflictPanel({ req, conflicts, onResolved }: { req: LoggedRequest; conflicts: FieldConflict[]; onResolved: (r?: LoggedRequest) => void }) {
  const store = usePlaygroundStore();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const fields = conflicts.map((c) => c.field);
  const manifest = useMemo(() => {
    try {
      return splitDocuments(req.requestBody ?? '')[0]?.value;
    } catch {
      return undefined;
    }
  }, [req.requestBody]);

  const act = async (kind: 'force' | 'drop' | 'adopt') => {
    setBusy(true);
    setError('');
    try {
      if (kind === 'force') {
        onResolved(await reapply(store, req, req.requestBody ?? '', true));
      } else if (kind === 'drop') {
        const doc = dropFields(manifest, fields);
        updateEditor(store, doc);
        onResolved(await reapply(store, req, toYaml(doc), false));
      } else {
        const res = await store.fetch(withoutQuery(req.path), { headers: { Accept: 'application/json' } }, 'console');
        const live = jsonOrUndefined(await res.text());
        if (!res.ok) throw new Error(`GET ${withoutQuery(req.path)}: ${res.status}`);
        const doc = adoptFields(manifest, live, fields);
        updateEditor(store, doc);
        onResolved(await reapply(store, req, toYaml(doc), false));
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="conflict" aria-label="Apply conflict" data-testid="conflict">
      <h4>Apply conflict: these fields are owned by other managers</h4>
      <ul>
        {conflicts.map((c) => (
          <li key={c.field}>
            <code>{c.field}</code> owned by <strong>{c.manager}</strong>
            {c.using ? <span className="hint"> (using {c.using})</span> : null}
          </li>
        ))}
      </ul>
      <div className="resolutions">
        <button type="button" disabled={busy} onClick={() => void act('force')} title="Re-apply with force=true: you become the sole manager of these fields">
          Force: take ownership
        </button>
        <button type="button" disabled={busy || manifest === undefined} onClick={() => void act('drop')} title="Remove these fields from the manifest and re-apply: you give up your claim">
          Drop the fields from my manifest
        </button>
        <button type="button" disabled={busy || manifest === undefined} onClick={() => void act('adopt')} title="Copy the server's values into the manifest and re-apply: you share ownership">
          Adopt the server's values (share ownership)
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}

export interface RawPreset {
  method: string;
  path: string;
  headers: string;
  body: string;
  seq: number;
}

const consoleDiscovery = new WeakMap<PlaygroundStore, DiscoveryCache>();

/** Before a raw DELETE (not a dry run): names what will go and asks. False when the user keeps it. */
export async function confirmRawDelete(store: PlaygroundStore, path: string): Promise<boolean> {
  if (/[?&]dryRun=/.test(path)) return true;
  const fetchJson = async (p: string) => {
    const res = await store.fetch(p, { headers: { Accept: 'application/json' } }, 'confirm');
    if (!res.ok) throw new Error(`${res.status} from ${p}`);
    return res.json() as Promise<unknown>;
  };
  const target = deleteTarget(path);
  const note = 'This cannot be undone.';
  if (!target) return confirmDialog({ title: `Send DELETE ${path}?`, lines: [path], note, confirmLabel: 'Delete' });
  if (target.kind === 'object') {
    const where = target.namespace ? `${target.namespace}/` : '';
    return confirmDialog({ title: `Delete ${target.resource} ${where}${target.name}?`, lines: [`${target.resource} ${where}${target.name}`], note, confirmLabel: 'Delete' });
  }
  if (target.kind === 'namespace') {
    let discovery = consoleDiscovery.get(store);
    if (!discovery) consoleDiscovery.set(store, (discovery = new DiscoveryCache(fetchJson)));
    const inside = await namespaceContents(await discovery.get(), target.name, fetchJson).catch(() => undefined);
    const lines = [`Namespace ${target.name}`];
    if (!inside) lines.push('  and everything in it');
    else if (inside.lines.length === 0) lines.push('  and everything in it: no objects now');
    else lines.push(`  and everything in it (${inside.total} object${inside.total === 1 ? '' : 's'}):`, ...inside.lines.map((l) => `  ${l}`));
    return confirmDialog({ title: `Delete namespace ${target.name}?`, lines, note, confirmLabel: 'Delete', maxLines: 40 });
  }
  const scope = target.namespace ? `in namespace ${target.namespace}` : 'in every namespace';
  const members = await collectionContents(path, fetchJson).catch(() => undefined);
  if (!members) {
    return confirmDialog({ title: `Delete every ${target.resource} ${scope} that this request selects?`, lines: [path], note, confirmLabel: 'Delete all' });
  }
  return confirmDialog({
    title: `Delete ${members.total} ${target.resource} ${scope}?`,
    lines: members.total === 0 ? ['none match now'] : members.lines,
    note,
    confirmLabel: 'Delete all',
  });
}

function RawRequest({ preset }: { preset?: RawPreset }) {
  const store = usePlaygroundStore();
  const ids = { method: useId(), path: useId(), headers: useId(), body: useId() };
  const [method, setMethod] = useState('GET');
  const [path, setPath] = useState('/api/v1/namespaces/default/configmaps');
  const [headers, setHeaders] = useState('Accept: application/json');
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!preset) return;
    setMethod(preset.method);
    setPath(preset.path);
    setHeaders(preset.headers);
    setBody(preset.body);
  }, [preset]);

  const send = async () => {
    setBusy(true);
    setError('');
    try {
      if (method === 'DELETE' && !(await confirmRawDelete(store, path))) {
        setError('DELETE cancelled: nothing was sent.');
        return;
      }
      const h = new Headers();
      for (const line of headers.split('\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) h.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const withBody = !['GET', 'HEAD'].includes(method) && body !== '';
      const res = await store.fetch(path, { method, headers: h, body: withBody ? body : undefined }, 'console');
      // a watch streams: stop reading after the headers (the console logs it as streaming)
      if (res.body && /[?&]watch=(1|true)/.test(path)) void res.body.cancel();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="raw"
      aria-label="Raw request"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <div className="raw-line">
        <label htmlFor={ids.method}>Method</label>
        <select id={ids.method} value={method} onChange={(e) => setMethod(e.target.value)}>
          {['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <label htmlFor={ids.path}>Path</label>
        <input id={ids.path} className="grow" value={path} onChange={(e) => setPath(e.target.value)} spellCheck={false} />
        <button type="submit" disabled={busy}>
          Send
        </button>
      </div>
      <div className="raw-line">
        <label htmlFor={ids.headers}>Headers</label>
        <textarea id={ids.headers} rows={3} value={headers} onChange={(e) => setHeaders(e.target.value)} spellCheck={false} />
        <label htmlFor={ids.body}>Body</label>
        <textarea id={ids.body} rows={3} value={body} onChange={(e) => setBody(e.target.value)} spellCheck={false} />
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}

export function RequestConsole() {
  const store = usePlaygroundStore();
  const requests = usePlayground((s) => s.requests);
  const focused = usePlayground((s) => s.focusedRequest);
  const [selectedId, setSelectedId] = useState<number | undefined>();
  const [format, setFormat] = useState<'yaml' | 'json'>('yaml');
  const [raw, setRaw] = useState(false);
  const [preset, setPreset] = useState<RawPreset | undefined>();
  const [copied, setCopied] = useState('');
  const editAsRaw = (r: LoggedRequest) => {
    setPreset({
      method: r.method,
      path: r.path,
      headers: r.requestHeaders.map(([k, v]) => `${k}: ${v}`).join('\n'),
      body: r.requestBody ?? '',
      seq: Date.now(),
    });
    setRaw(true);
  };
  const [curl, setCurl] = useState<{ id: number; command: string } | undefined>();
  const copyCurl = async (r: LoggedRequest) => {
    const { command, note } = curlForNodeHost(r);
    setCurl({ id: r.id, command });
    try {
      await navigator.clipboard.writeText(command);
      setCopied(`Copied a curl command ${note}`);
    } catch {
      setCopied(`Copying is not allowed here; the command below is ${note}`);
    }
  };

  useEffect(() => {
    if (focused) setSelectedId(focused.id);
  }, [focused]);

  const selected = requests.find((r) => r.id === selectedId);
  const conflicts = useMemo(() => {
    if (!selected || selected.status !== 409) return undefined;
    const ct = header(selected.requestHeaders, 'content-type') ?? '';
    if (!ct.startsWith('application/apply-patch')) return undefined;
    return parseConflicts(jsonOrUndefined(selected.responseBody));
  }, [selected]);

  const resolvedBy = conflicts && selected ? conflictResolution(selected, requests) : undefined;

  const [filter, setFilter] = useState('');
  const filterId = useId();
  const ordered = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const shown = q
      ? requests.filter((r) => `${r.method} ${r.path} ${r.status ?? ''} ${r.source}`.toLowerCase().includes(q))
      : requests;
    return [...shown].reverse();
  }, [requests, filter]);

  return (
    <div className="console">
      <div className="console-toolbar">
        <button type="button" aria-pressed={raw} onClick={() => setRaw((r) => !r)}>
          Raw request
        </button>
        <button type="button" onClick={() => store.clearRequests()}>
          Clear
        </button>
        <label htmlFor={filterId} className="visually-hidden">
          Filter requests
        </label>
        <input id={filterId} type="search" placeholder="filter: method, path, status, source" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <span className="hint">
          {ordered.length === requests.length ? `${requests.length} requests` : `${ordered.length} of ${requests.length} requests`}
        </span>
      </div>
      {raw && <RawRequest preset={preset} />}
      <div className="console-split">
        <ol className="request-list" aria-label="Requests">
          {ordered.map((r) => {
            const { pathname, query } = splitPath(r.path);
            const warns = r.responseHeaders?.some(([k]) => k.toLowerCase() === 'warning');
            return (
              <li key={r.id}>
                <button
                  type="button"
                  aria-pressed={r.id === selectedId}
                  onClick={() => {
                    setSelectedId(r.id);
                    setCopied('');
                  }}
                  className={r.error || (r.status ?? 0) >= 400 ? 'failed' : undefined}
                  data-testid="request-row"
                >
                  <span className="method">{r.method}</span>
                  <span className="path" title={r.path}>
                    {pathname}
                    {query && <span className="query">?{query}</span>}
                  </span>
                  <span className="status">{r.error ? 'error' : (r.status ?? '…')}</span>
                  {warns ? <span className="warn-flag" title="Warning headers">⚠</span> : <span className="warn-flag" />}
                  <span className="duration">{r.durationMs !== undefined ? `${Math.round(r.durationMs)} ms` : ''}</span>
                  <span className="source">{r.source}</span>
                </button>
              </li>
            );
          })}
        </ol>
        <div className="request-detail" aria-label="Request detail" role="region">
          {!selected ? (
            <p className="hint">Select a request to see its headers and bodies.</p>
          ) : (
            <>
              <p className="request-line" data-testid="request-line">
                <strong>{selected.method}</strong> <code>{selected.path}</code> →{' '}
                <strong>{selected.error ? selected.error : selected.status}</strong>
                {selected.durationMs !== undefined && <span className="hint"> in {Math.round(selected.durationMs)} ms</span>}
                {selected.streaming && <span className="hint"> (stream: body not captured)</span>}
                {/[?&]dryRun=All/.test(selected.path) && (
                  <span className="hint" data-testid="dry-run-note">
                    {' '}
                    (dry run: the server stored nothing)
                  </span>
                )}
              </p>
              <div className="detail-actions">
                <button type="button" onClick={() => editAsRaw(selected)}>
                  Edit as raw request
                </button>
                <button type="button" onClick={() => void copyCurl(selected)}>
                  Copy as curl
                </button>
                <span role="status" className="hint" data-testid="curl-note">
                  {copied}
                </span>
              </div>
              {curl?.id === selected.id && (
                <pre className="curl-command" tabIndex={0} data-testid="curl-command">
                  {curl.command}
                </pre>
              )}
              {conflicts && resolvedBy && (
                <p className="hint" data-testid="conflict-resolved-note">
                  This conflict has been resolved: {resolvedBy.method} <code>{resolvedBy.path}</code> → {resolvedBy.status}.{' '}
                  <button type="button" className="link" onClick={() => setSelectedId(resolvedBy.id)}>
                    Show it
                  </button>
                </p>
              )}
              {conflicts && !resolvedBy && <ConflictPanel req={selected} conflicts={conflicts} onResolved={(r) => r && setSelectedId(r.id)} />}
              <div className="format-toggle" role="group" aria-label="Body format">
                <button type="button" aria-pressed={format === 'yaml'} onClick={() => setFormat('yaml')}>
                  YAML
                </button>
                <button type="button" aria-pressed={format === 'json'} onClick={() => setFormat('json')}>
                  JSON
                </button>
              </div>
              <HeaderList title="Request headers" headers={selected.requestHeaders} />
              <Body title="Request body" text={selected.requestBody} format={format} />
              <HeaderList title="Response headers" headers={selected.responseHeaders} />
              <Body title="Response body" text={selected.responseBody} format={format} />
            </>
          )}
        </div>
      </div>
    </div>
  );
}
