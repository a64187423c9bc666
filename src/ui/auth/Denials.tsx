// The refused-requests panel: every request the UI made that RBAC or admission refused, with the server's
// real Status message and an explanation. For RBAC: what was needed (verb, resource, group, namespace),
// which existing Roles and ClusterRoles would allow it (listed as the administrator and matched here,
// rules.ts), the access review answer for the acting user, the rules that user has (SelfSubjectRulesReview),
// and a binding that would grant it, opened in the editor (never applied by itself). For admission: the
// policy and expression, the PodSecurity level and checks, or the quota and its numbers.
import { useEffect, useId, useState, type ReactNode } from 'react';
import { usePlayground, usePlaygroundStore, type Denial, type PlaygroundStore } from '../playground.js';
import { toYaml } from '../editor/actions.js';
import { actingUserName, impersonationHeaders, type ActingUser } from './identity.js';
import { describeAttributes, type Refusal } from './refusal.js';
import { rolesAllowing, suggestBinding, type PolicyRule, type RequestAttributes, type RoleMatch } from './rules.js';
import './auth.css';

type Loadable<T> = { state: 'loading' } | { state: 'ok'; value: T } | { state: 'error'; message: string };

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const ADMISSION = '/apis/admissionregistration.k8s.io/v1';

/** GET or POST JSON; `as` decides who asks (the administrator, or a given acting user). */
async function json<T>(store: PlaygroundStore, path: string, as: 'admin' | ActingUser, body?: unknown): Promise<T> {
  const headers: [string, string][] = [['Accept', 'application/json']];
  if (body !== undefined) headers.push(['Content-Type', 'application/json']);
  if (as !== 'admin') headers.push(...impersonationHeaders(as));
  const init: RequestInit = { headers, method: body === undefined ? 'GET' : 'POST', body: body === undefined ? undefined : JSON.stringify(body) };
  // as the administrator: no impersonation headers; as a user: exactly theirs (set here, kept by the store)
  const res = await store.fetch(path, init, 'explain', { asAdmin: as === 'admin' || as.kind === 'admin' });
  const out = (await res.json().catch(() => undefined)) as (T & { message?: string }) | undefined;
  if (!res.ok) throw new Error(`${res.status}: ${out?.message ?? res.statusText}`);
  return out as T;
}

function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loadable<T> {
  const [v, setV] = useState<Loadable<T>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setV({ state: 'loading' });
    load().then(
      (value) => live && setV({ state: 'ok', value }),
      (e: unknown) => live && setV({ state: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return v;
}

function Loading<T>({ v, children }: { v: Loadable<T>; children: (value: T) => ReactNode }) {
  if (v.state === 'loading') return <p className="hint">Loading…</p>;
  if (v.state === 'error') return <p className="error">{v.message}</p>;
  return <>{children(v.value)}</>;
}

const namespaceOf = (path: string) => /\/namespaces\/([^/?]+)\//.exec(path)?.[1] ?? '';
const who = (u: ActingUser) => actingUserName(u) ?? 'kubernetes-admin';
const list = (xs: string[] | undefined) => (xs && xs.length ? xs.map((x) => (x === '' ? '""' : x)).join(', ') : '—');

export function RuleText({ rule }: { rule: PolicyRule }) {
  if (rule.nonResourceURLs?.length) {
    return (
      <code>
        nonResourceURLs [{list(rule.nonResourceURLs)}] verbs [{list(rule.verbs)}]
      </code>
    );
  }
  return (
    <code>
      apiGroups [{list(rule.apiGroups)}] resources [{list(rule.resources)}]
      {rule.resourceNames?.length ? ` resourceNames [${list(rule.resourceNames)}]` : ''} verbs [{list(rule.verbs)}]
    </code>
  );
}

export function DenialsPanel() {
  const store = usePlaygroundStore();
  const denials = usePlayground((s) => s.denials);
  const heading = useId();
  if (!denials?.length) return null;
  const newestFirst = [...denials].reverse();
  return (
    <section className="denials" aria-labelledby={heading} data-testid="denials">
      <div className="denials-head">
        <h2 id={heading}>Refused requests ({denials.length})</h2>
        <button type="button" onClick={() => store.dismissDenial()}>
          Dismiss all
        </button>
      </div>
      {newestFirst.map((d, i) => (
        <DenialView key={d.requestId} denial={d} initiallyOpen={i === 0} />
      ))}
    </section>
  );
}

const REFUSED_BY: Record<Refusal['kind'], string> = {
  rbac: 'refused by RBAC',
  policy: 'refused by a ValidatingAdmissionPolicy',
  'pod-security': 'refused by PodSecurity admission',
  quota: 'refused by ResourceQuota admission',
  'quota-missing': 'refused by ResourceQuota admission',
};

function DenialView({ denial, initiallyOpen }: { denial: Denial; initiallyOpen: boolean }) {
  const store = usePlaygroundStore();
  const [open, setOpen] = useState(initiallyOpen);
  const r = denial.refusal;
  return (
    <details className="denial" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="denial">
      <summary>
        <strong>{denial.status}</strong> <code>{denial.method}</code> <code>{denial.path}</code> as <strong>{who(denial.actingUser)}</strong> —{' '}
        {REFUSED_BY[r.kind]}
      </summary>
      {open && (
        <div className="denial-body">
          <p className="status-message" data-testid="denial-message">
            {r.message}
          </p>
          {r.kind === 'rbac' && <RbacExplanation denial={denial} user={r.user} attributes={r.attributes} />}
          {r.kind === 'policy' && <PolicyExplanation refusal={r} />}
          {r.kind === 'pod-security' && <PodSecurityExplanation refusal={r} namespace={namespaceOf(denial.path)} />}
          {(r.kind === 'quota' || r.kind === 'quota-missing') && <QuotaExplanation refusal={r} namespace={namespaceOf(denial.path)} />}
          <p>
            <button type="button" onClick={() => store.focusRequest(denial.requestId)}>
              Show the request
            </button>{' '}
            <button type="button" onClick={() => store.dismissDenial(denial.requestId)}>
              Dismiss
            </button>
          </p>
        </div>
      )}
    </details>
  );
}

interface RoleListView {
  items?: { metadata?: { name?: string; namespace?: string }; rules?: unknown }[];
}
interface AccessReviewView {
  status?: { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}
interface RulesReviewView {
  status?: {
    resourceRules?: PolicyRule[];
    nonResourceRules?: PolicyRule[];
    incomplete?: boolean;
    evaluationError?: string;
  };
}

function RbacExplanation({ denial, user, attributes: a }: { denial: Denial; user: string; attributes: RequestAttributes }) {
  const store = usePlaygroundStore();
  const matches = useLoad(async () => {
    const clusterRoles = await json<RoleListView>(store, `${RBAC}/clusterroles`, 'admin');
    const roles = a.resourceRequest && a.namespace ? await json<RoleListView>(store, `${RBAC}/namespaces/${encodeURIComponent(a.namespace)}/roles`, 'admin') : { items: [] };
    return rolesAllowing(a, clusterRoles.items ?? [], roles.items ?? []);
  }, [store, denial.requestId]);
  const review = useLoad(
    () =>
      json<AccessReviewView>(store, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', denial.actingUser, {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: a.resourceRequest
          ? { resourceAttributes: { verb: a.verb, group: a.apiGroup, resource: a.resource, subresource: a.subresource, namespace: a.namespace, name: a.name } }
          : { nonResourceAttributes: { verb: a.verb, path: a.path } },
      }),
    [store, denial.requestId],
  );
  const rulesNamespace = a.namespace || 'default';
  const rules = useLoad(
    () =>
      json<RulesReviewView>(store, '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', denial.actingUser, {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectRulesReview',
        spec: { namespace: rulesNamespace },
      }),
    [store, denial.requestId],
  );
  const namespaced = a.resourceRequest && a.namespace !== '';
  const bindingKind = namespaced ? 'RoleBinding' : 'ClusterRoleBinding';
  const open = (m?: RoleMatch) => store.openInEditor(suggestBinding(a, user, m && { kind: m.kind, name: m.name }));

  return (
    <>
      <p>
        <strong>{user}</strong> needs permission to <code>{describeAttributes(a)}</code>:
      </p>
      <dl data-testid="denial-needed">
        <dt>verb</dt>
        <dd>{a.verb}</dd>
        {a.resourceRequest ? (
          <>
            <dt>resource</dt>
            <dd>{a.subresource ? `${a.resource}/${a.subresource}` : a.resource}</dd>
            <dt>API group</dt>
            <dd>{a.apiGroup === '' ? '"" (core)' : a.apiGroup}</dd>
            <dt>namespace</dt>
            <dd>{a.namespace || '(cluster scope)'}</dd>
            {a.name && (
              <>
                <dt>name</dt>
                <dd>{a.name}</dd>
              </>
            )}
          </>
        ) : (
          <>
            <dt>path</dt>
            <dd>{a.path}</dd>
          </>
        )}
      </dl>
      <Loading v={review}>
        {(v) => (
          <p data-testid="denial-review">
            SelfSubjectAccessReview as {user}: <code>allowed: {String(v.status?.allowed ?? false)}</code>
            {v.status?.reason ? ` (${v.status.reason})` : ''}
          </p>
        )}
      </Loading>
      <Loading v={matches}>
        {(ms) =>
          ms.length === 0 ? (
            <p data-testid="denial-roles">
              No existing {namespaced ? 'Role or ClusterRole' : 'ClusterRole'} has a rule allowing it.{' '}
              <button type="button" className="primary" onClick={() => open()} data-testid="suggest-binding">
                Open a {namespaced ? 'Role' : 'ClusterRole'} and {bindingKind} granting exactly this in the editor
              </button>
            </p>
          ) : (
            <div data-testid="denial-roles">
              <p>
                Roles that would allow it ({ms.length}, narrowest first). A {bindingKind} of <strong>{ms[0].kind} {ms[0].name}</strong> to {user} would
                grant it:{' '}
                <button type="button" className="primary" onClick={() => open(ms[0])} data-testid="suggest-binding">
                  Open the suggested {bindingKind} in the editor
                </button>
              </p>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Role</th>
                    <th scope="col">Allowing rule</th>
                    <th scope="col">
                      <span className="visually-hidden">Binding</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {ms.slice(0, 5).map((m) => (
                    <tr key={`${m.kind}/${m.name}`}>
                      <td>
                        {m.kind} <strong>{m.name}</strong>
                      </td>
                      <td>
                        <RuleText rule={m.rules[0]} />
                      </td>
                      <td>
                        <button type="button" onClick={() => open(m)}>
                          {bindingKind} for {m.name}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {ms.length > 5 && <p className="hint">and {ms.length - 5} more.</p>}
            </div>
          )
        }
      </Loading>
      <p className="hint">The binding opens in the editor and is not applied: switch back to the administrator and apply it, then retry.</p>
      <details data-testid="denial-rules">
        <summary>
          Rules {user} has in namespace {rulesNamespace} (SelfSubjectRulesReview)
        </summary>
        <Loading v={rules}>
          {(v) => (
            <ul>
              {[...(v.status?.resourceRules ?? []), ...(v.status?.nonResourceRules ?? [])].map((rule, i) => (
                <li key={i}>
                  <RuleText rule={rule} />
                </li>
              ))}
              {v.status?.incomplete && <li className="hint">incomplete: {v.status.evaluationError}</li>}
            </ul>
          )}
        </Loading>
      </details>
    </>
  );
}

interface PolicyView {
  metadata?: { name?: string; managedFields?: unknown };
  spec?: { validations?: { expression?: string; message?: string; messageExpression?: string; reason?: string }[]; failurePolicy?: string };
}
interface BindingView {
  spec?: { validationActions?: string[]; paramRef?: { name?: string; namespace?: string } };
}

function withoutManagedFields(o: PolicyView): unknown {
  const metadata = { ...(o.metadata ?? {}) };
  delete metadata.managedFields;
  return { ...o, metadata };
}

function PolicyExplanation({ refusal: r }: { refusal: Extract<Refusal, { kind: 'policy' }> }) {
  const store = usePlaygroundStore();
  const policy = useLoad(() => json<PolicyView>(store, `${ADMISSION}/validatingadmissionpolicies/${encodeURIComponent(r.policy)}`, 'admin'), [store, r.message]);
  const binding = useLoad(
    () => (r.binding ? json<BindingView>(store, `${ADMISSION}/validatingadmissionpolicybindings/${encodeURIComponent(r.binding)}`, 'admin') : Promise.resolve(undefined)),
    [store, r.message],
  );
  const refusing = (v: NonNullable<NonNullable<PolicyView['spec']>['validations']>[number]) =>
    r.expression !== undefined ? v.expression?.trim() === r.expression.trim() : v.message?.trim() === r.detail.trim() && !v.messageExpression;
  return (
    <>
      <dl data-testid="denial-policy">
        <dt>policy</dt>
        <dd>{r.policy}</dd>
        {r.binding !== undefined && (
          <>
            <dt>binding</dt>
            <dd>
              {r.binding}
              {binding.state === 'ok' && binding.value?.spec?.validationActions ? ` (validationActions: ${binding.value.spec.validationActions.join(', ')})` : ''}
            </dd>
          </>
        )}
        <dt>{r.expression !== undefined ? 'failed expression' : 'message'}</dt>
        <dd data-testid="denial-expression">{r.expression ?? r.detail}</dd>
      </dl>
      <Loading v={policy}>
        {(p) => {
          const vs = p.spec?.validations ?? [];
          const exact = vs.some(refusing);
          return (
            <>
              <p>
                The policy's validations{exact ? ' (the one that refused is marked)' : vs.some((v) => v.messageExpression) ? ' (the message came from a messageExpression)' : ''}:
              </p>
              <ul>
                {vs.map((v, i) => (
                  <li key={i} className={refusing(v) ? 'refused' : undefined} data-refused={refusing(v) || undefined}>
                    <code>{v.expression}</code>
                    {v.message ? ` — message: ${v.message}` : ''}
                    {v.messageExpression ? ` — messageExpression: ${v.messageExpression}` : ''}
                    {v.reason ? ` — reason: ${v.reason}` : ''}
                  </li>
                ))}
              </ul>
              <p>
                <button type="button" onClick={() => store.openInEditor(toYaml(withoutManagedFields(p)))}>
                  Open the policy in the editor
                </button>
              </p>
            </>
          );
        }}
      </Loading>
    </>
  );
}

function PodSecurityExplanation({ refusal: r, namespace }: { refusal: Extract<Refusal, { kind: 'pod-security' }>; namespace: string }) {
  const store = usePlaygroundStore();
  const ns = useLoad(
    () => (namespace ? json<{ metadata?: { labels?: Record<string, string> } }>(store, `/api/v1/namespaces/${encodeURIComponent(namespace)}`, 'admin') : Promise.resolve(undefined)),
    [store, r.message],
  );
  return (
    <>
      <p data-testid="denial-pod-security">
        The namespace {namespace ? <strong>{namespace}</strong> : ''} enforces the Pod Security Standard <strong>{r.level}</strong> (version {r.version}).
        Each check the pod fails:
      </p>
      <ul>
        {r.violations.map((v, i) => (
          <li key={i}>
            <strong>{v.check}</strong>
            {v.detail ? `: ${v.detail}` : ''}
          </li>
        ))}
      </ul>
      {ns.state === 'ok' && ns.value && (
        <p>
          Labels of namespace {namespace}:{' '}
          {Object.entries(ns.value.metadata?.labels ?? {})
            .filter(([k]) => k.startsWith('pod-security.kubernetes.io/'))
            .map(([k, v]) => (
              <code key={k}>
                {k}={v}{' '}
              </code>
            ))}
        </p>
      )}
    </>
  );
}

function QuotaExplanation({ refusal: r, namespace }: { refusal: Extract<Refusal, { kind: 'quota' | 'quota-missing' }>; namespace: string }) {
  const store = usePlaygroundStore();
  const openQuota = async () => {
    const q = await json<PolicyView>(store, `/api/v1/namespaces/${encodeURIComponent(namespace)}/resourcequotas/${encodeURIComponent(r.quota)}`, 'admin');
    store.openInEditor(toYaml(withoutManagedFields(q)));
  };
  return (
    <>
      <p data-testid="denial-quota">
        ResourceQuota <strong>{r.quota}</strong>
        {namespace ? ` in namespace ${namespace}` : ''}{' '}
        {r.kind === 'quota' ? 'would be exceeded:' : `requires: ${r.detail}`}
      </p>
      {r.kind === 'quota' && (
        <table>
          <thead>
            <tr>
              <th scope="col">resource</th>
              <th scope="col">requested</th>
              <th scope="col">used</th>
              <th scope="col">limited</th>
            </tr>
          </thead>
          <tbody>
            {Object.keys(r.limited).map((k) => (
              <tr key={k}>
                <td>{k}</td>
                <td>{r.requested[k] ?? ''}</td>
                <td>{r.used[k] ?? ''}</td>
                <td>{r.limited[k]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {namespace && (
        <p>
          <button type="button" onClick={() => void openQuota().catch(() => undefined)}>
            Open the quota in the editor
          </button>
        </p>
      )}
    </>
  );
}
