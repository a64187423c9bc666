// The header's acting-user chip and switcher: who acts now, as the server answers a SelfSubjectReview
// (what `kubectl auth whoami` prints), and a form to act as a user with groups, a service account, or the
// cluster's administrator again. The choice is kept per cluster (identity.ts) and every request of the
// store carries its impersonation headers.
import { useEffect, useId, useState } from 'react';
import { usePlayground, usePlaygroundStore, type PlaygroundStore } from '../playground.js';
import { ADMIN, actingUserId, actingUserName, parseGroups, saveActingUser, validateActingUser, type ActingUser } from './identity.js';
import './auth.css';

interface UserInfoView {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

type Whoami = { state: 'loading' } | { state: 'ok'; user: UserInfoView } | { state: 'error'; message: string };

const REVIEW_PATH = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

/** POST a SelfSubjectReview as the acting user; its status.userInfo is who the server thinks acts. */
export async function whoami(store: PlaygroundStore): Promise<UserInfoView> {
  const res = await store.fetch(
    REVIEW_PATH,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    },
    'identity',
  );
  const body = (await res.json().catch(() => undefined)) as { message?: string; status?: { userInfo?: UserInfoView } } | undefined;
  if (!res.ok) throw new Error(`${res.status}: ${body?.message ?? res.statusText}`);
  return body?.status?.userInfo ?? {};
}

export function ActingUserSwitcher({ cluster }: { cluster: string }) {
  const store = usePlaygroundStore();
  const acting = usePlayground((s) => s.actingUser ?? ADMIN);
  const id = actingUserId(acting);
  const [who, setWho] = useState<Whoami>({ state: 'loading' });
  const [open, setOpen] = useState(false);

  useEffect(() => {
    let live = true;
    setWho({ state: 'loading' });
    whoami(store).then(
      (user) => live && setWho({ state: 'ok', user }),
      (e: unknown) => live && setWho({ state: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
    // re-asked whenever the acting user changes
  }, [store, id]);

  const choose = (u: ActingUser) => {
    saveActingUser(globalThis.localStorage, cluster, u);
    store.setActingUser(u);
    setOpen(false);
  };

  const admin = acting.kind === 'admin';
  const expected = actingUserName(acting);
  const name = who.state === 'ok' ? (who.user.username ?? '') : (expected ?? (who.state === 'loading' ? '…' : '?'));
  const groups = who.state === 'ok' ? (who.user.groups ?? []) : [];
  return (
    <div className={`acting${admin ? '' : ' impersonating'}`} role="group" aria-label="Acting user" data-testid="acting-user-bar">
      <span className="hint">{admin ? 'acting as' : 'impersonating'}</span>{' '}
      <strong data-testid="acting-user" title={groups.length ? `groups: ${groups.join(', ')}` : undefined}>
        {name}
      </strong>
      {groups.length > 0 && (
        <span className="acting-groups hint" data-testid="acting-groups">
          ({groups.join(', ')})
        </span>
      )}
      {who.state === 'error' && (
        <span className="error" role="alert">
          whoami failed: {who.message}
        </span>
      )}
      {!admin && (
        <button type="button" onClick={() => choose(ADMIN)} title="Stop impersonating: act as the cluster administrator">
          Back to admin
        </button>
      )}
      <span className="help-anchor">
        <button type="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          Switch user
        </button>
        {open && <SwitchForm current={acting} onChoose={choose} onCancel={() => setOpen(false)} />}
      </span>
    </div>
  );
}

function SwitchForm({ current, onChoose, onCancel }: { current: ActingUser; onChoose: (u: ActingUser) => void; onCancel: () => void }) {
  const ids = { kind: useId(), name: useId(), groups: useId(), ns: useId(), sa: useId(), problems: useId() };
  const [kind, setKind] = useState<ActingUser['kind']>(current.kind);
  const [name, setName] = useState(current.kind === 'user' ? current.name : '');
  const [groups, setGroups] = useState(current.kind === 'user' ? current.groups.join(', ') : '');
  const [ns, setNs] = useState(current.kind === 'serviceaccount' ? current.namespace : 'default');
  const [sa, setSa] = useState(current.kind === 'serviceaccount' ? current.name : 'default');
  const [problems, setProblems] = useState<string[]>([]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const u: ActingUser =
      kind === 'admin' ? ADMIN : kind === 'user' ? { kind, name: name.trim(), groups: parseGroups(groups) } : { kind, namespace: ns.trim(), name: sa.trim() };
    const p = validateActingUser(u);
    setProblems(p);
    if (p.length === 0) onChoose(u);
  };

  return (
    <form
      className="popover acting-form"
      role="dialog"
      aria-label="Switch the acting user"
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <fieldset>
        <legend>Act as</legend>
        <label>
          <input type="radio" name={ids.kind} checked={kind === 'admin'} onChange={() => setKind('admin')} /> the cluster administrator (kubernetes-admin,
          system:masters)
        </label>
        <label>
          <input type="radio" name={ids.kind} checked={kind === 'user'} onChange={() => setKind('user')} /> a user
        </label>
        <label>
          <input type="radio" name={ids.kind} checked={kind === 'serviceaccount'} onChange={() => setKind('serviceaccount')} /> a service account
        </label>
      </fieldset>
      {kind === 'user' && (
        <div className="acting-fields">
          <label htmlFor={ids.name}>User name</label>
          <input id={ids.name} autoFocus value={name} onChange={(e) => setName(e.target.value)} placeholder="jane" aria-describedby={ids.problems} />
          <label htmlFor={ids.groups}>Groups</label>
          <input id={ids.groups} value={groups} onChange={(e) => setGroups(e.target.value)} placeholder="team-a, team-b (comma-separated)" />
          <p className="hint">system:authenticated is added by the server.</p>
        </div>
      )}
      {kind === 'serviceaccount' && (
        <div className="acting-fields">
          <label htmlFor={ids.ns}>Namespace</label>
          <input id={ids.ns} value={ns} onChange={(e) => setNs(e.target.value)} aria-describedby={ids.problems} />
          <label htmlFor={ids.sa}>Service account name</label>
          <input id={ids.sa} value={sa} onChange={(e) => setSa(e.target.value)} />
          <p className="hint">
            Acts as <code>system:serviceaccount:{ns || 'NS'}:{sa || 'NAME'}</code> with the groups system:serviceaccounts and system:serviceaccounts:
            {ns || 'NS'}.
          </p>
        </div>
      )}
      <div id={ids.problems} role="alert" className="error">
        {problems.join('; ')}
      </div>
      <p className="hint">Requests carry Impersonate-User and Impersonate-Group headers; the administrator may impersonate anyone.</p>
      <div className="acting-buttons">
        <button type="submit" className="primary">
          Act as this user
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
