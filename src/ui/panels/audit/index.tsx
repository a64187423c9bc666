// Audit log: the cluster's latest audit events (GET <base_url>/x-playground/audit, kept by the engine as
// audit.k8s.io/v1 Events under the policy in the cluster settings), newest first: time, user, verb, URI,
// response code and annotations; a row opens the whole event as JSON. Read as the cluster administrator
// (the endpoint is admin only, as real audit logs are), refreshed after each request of the playground.
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePlayground, usePlaygroundStore } from '../../playground.js';
import { errorText, usePanelTheme } from '../common/ui.js';
import './audit.css';

const SOURCE = 'audit';

interface EventUser {
  username?: string;
  groups?: string[];
}

export interface AuditEventView {
  level: string;
  auditID: string;
  stage: string;
  requestURI: string;
  verb: string;
  user: EventUser;
  impersonatedUser?: EventUser;
  responseStatus?: { code?: number; message?: string };
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

interface AuditList {
  items: AuditEventView[];
  written: number;
  capacity: number;
  policy: unknown;
}

/** "kubernetes-admin", or "kubernetes-admin as jane" when impersonating. */
export function userText(e: AuditEventView): string {
  const who = e.user.username ?? '(unauthenticated)';
  return e.impersonatedUser ? `${who} as ${e.impersonatedUser.username ?? ''}` : who;
}

/** The annotations as short `key=value` items, the authorization decision first. */
export function annotationItems(e: AuditEventView): string[] {
  const a = e.annotations ?? {};
  const keys = Object.keys(a).sort((x, y) => (x === 'authorization.k8s.io/decision' ? -1 : y === 'authorization.k8s.io/decision' ? 1 : x < y ? -1 : 1));
  return keys.filter((k) => !(k === 'authorization.k8s.io/reason' && a[k] === '')).map((k) => `${k.replace(/^authorization\.k8s\.io\//, '')}=${a[k]}`);
}

function timeText(iso: string): string {
  const m = /T(\d\d:\d\d:\d\d\.\d{3})/.exec(iso);
  return m ? m[1] : iso;
}

export function AuditLogPanel() {
  const store = usePlaygroundStore();
  const theme = usePanelTheme();
  const [list, setList] = useState<AuditList>();
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<string>();
  // refresh after any request of the playground but this panel's own
  const lastOther = usePlayground((s) => {
    for (let i = s.requests.length - 1; i >= 0; i--) {
      const r = s.requests[i];
      if (r.source !== SOURCE && r.status !== undefined) return r.id;
    }
    return 0;
  });
  const inFlight = useRef(false);
  const load = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      const res = await store.fetch('/x-playground/audit', { headers: { Accept: 'application/json' } }, SOURCE, { asAdmin: true });
      const body = (await res.json()) as AuditList & { message?: string };
      if (!res.ok) throw new Error(body.message ?? `${res.status}`);
      setList(body);
      setError(undefined);
    } catch (e) {
      setError(errorText(e));
    } finally {
      inFlight.current = false;
    }
  }, [store]);
  useEffect(() => {
    const t = setTimeout(() => void load(), 250);
    return () => clearTimeout(t);
  }, [lastOther, load]);

  const rows = useMemo(() => {
    const items = [...(list?.items ?? [])].reverse();
    const f = filter.trim().toLowerCase();
    if (!f) return items;
    return items.filter((e) => JSON.stringify(e).toLowerCase().includes(f));
  }, [list, filter]);

  return (
    <section className="pp audit-panel" aria-label="Audit log" data-testid="audit-panel" data-theme={theme}>
      <div className="pp-toolbar">
        <label>
          Filter <input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="user, verb, URI, annotation…" data-testid="audit-filter" />
        </label>
        <button type="button" onClick={() => void load()} data-testid="audit-refresh">
          Refresh
        </button>
        <span className="pp-muted" role="status" data-testid="audit-status">
          {list ? `${rows.length} shown; ${list.items.length} kept of ${list.written} written (last ${list.capacity})` : 'Loading…'}
          {list && !list.policy ? ' — no audit policy: nothing is recorded' : ''}
        </span>
      </div>
      <p className="pp-muted">Events written under the cluster's audit policy (Cluster settings). Reads and the cluster's own components are not recorded by the default policy.</p>
      {error && (
        <p role="alert" className="pp-error">
          {error}
        </p>
      )}
      <div className="audit-table-wrap">
        <table className="audit-table" data-testid="audit-table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Stage</th>
              <th scope="col">User</th>
              <th scope="col">Verb</th>
              <th scope="col">URI</th>
              <th scope="col">Code</th>
              <th scope="col">Annotations</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => {
              const key = `${e.auditID}/${e.stage}`;
              const expanded = open === key;
              const code = e.responseStatus?.code;
              return (
                <Fragment key={key}>
                  <tr className={code !== undefined && code >= 400 ? 'audit-failed' : undefined} data-testid="audit-row">
                    <td>
                      <button type="button" className="audit-toggle" aria-expanded={expanded} onClick={() => setOpen(expanded ? undefined : key)} title="Show the whole event">
                        {timeText(e.stageTimestamp)}
                      </button>
                    </td>
                    <td>{e.stage}</td>
                    <td>{userText(e)}</td>
                    <td>{e.verb}</td>
                    <td className="audit-uri">{e.requestURI}</td>
                    <td>{code ?? ''}</td>
                    <td className="audit-annotations">
                      {annotationItems(e).map((a) => (
                        <code key={a}>{a}</code>
                      ))}
                    </td>
                  </tr>
                  {expanded && (
                    <tr className="audit-detail">
                      <td colSpan={7}>
                        <pre data-testid="audit-event-json">{JSON.stringify(e, null, 2)}</pre>
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
        {list && rows.length === 0 && <p className="pp-muted">No events yet: create, change or delete something.</p>}
      </div>
    </section>
  );
}
