// The lessons: short guided scenarios, each a sequence of steps. A step says what to do (a manifest to load
// into the editor, a kubectl command for the terminal, or a scripted request sequence when kubectl has no
// command for it) and carries a check that reads the cluster's state through the API, so a step counts as
// done because the cluster says so, whichever way the learner got there. Pure apart from the fetch given.

/** The API as the lessons see it: paths relative to the cluster's base_url. */
export type LessonFetch = (path: string, init?: RequestInit) => Promise<Response>;

export interface CheckResult {
  done: boolean;
  /** What the check saw, shown under the step. */
  detail: string;
}

export type LessonAction =
  | { kind: 'manifest'; text: string }
  | { kind: 'command'; line: string; /** a fragment of the output the learner should see */ expect?: string }
  | { kind: 'script'; label: string; describe: string; run: (fetch: LessonFetch) => Promise<string>; expect?: string };

export interface LessonStep {
  title: string;
  /** Paragraphs. */
  text: string[];
  actions: LessonAction[];
  check: (fetch: LessonFetch) => Promise<CheckResult>;
  /** Shown while the check is not yet done. */
  hint: string;
}

export interface Lesson {
  id: string;
  title: string;
  summary: string;
  steps: LessonStep[];
}

// ---------------------------------------------------------------------------------------------------
// Reading the cluster

interface Meta {
  name?: string;
  uid?: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
  finalizers?: string[];
  deletionTimestamp?: string;
  ownerReferences?: { uid?: string; name?: string; kind?: string }[];
  managedFields?: { manager?: string; operation?: string; fieldsV1?: Record<string, unknown> }[];
}
interface Obj {
  metadata?: Meta;
  data?: Record<string, string>;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [k: string]: unknown;
}

async function read(fetch: LessonFetch, path: string): Promise<{ status: number; body: Obj }> {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  const text = await res.text();
  let body: Obj = {};
  try {
    body = text ? (JSON.parse(text) as Obj) : {};
  } catch {
    body = {};
  }
  return { status: res.status, body };
}

const cmPath = (name: string, ns = 'default') => `/api/v1/namespaces/${ns}/configmaps/${name}`;

/** Whether `manager` (any manager when '*') owns the field at `path` (fieldsV1 keys, e.g. ['f:data', 'f:color']). */
export function owns(obj: Obj, manager: string, path: string[], operation?: string): boolean {
  return (obj.metadata?.managedFields ?? []).some((m) => {
    if ((manager !== '*' && m.manager !== manager) || (operation && m.operation !== operation)) return false;
    let node: unknown = m.fieldsV1;
    for (const k of path) {
      if (!node || typeof node !== 'object' || !(k in node)) return false;
      node = (node as Record<string, unknown>)[k];
    }
    return true;
  });
}

function result(done: boolean, detail: string): CheckResult {
  return { done, detail };
}

async function accessReview(fetch: LessonFetch, user: string, verb: string, resource: string, namespace = 'default'): Promise<boolean | undefined> {
  const res = await fetch('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user, resourceAttributes: { verb, resource, namespace } },
    }),
  });
  if (!res.ok) return undefined;
  const body = (await res.json()) as { status?: { allowed?: boolean } };
  return body.status?.allowed === true;
}

async function statusLine(res: Response): Promise<string> {
  const text = await res.text();
  let message = '';
  try {
    const body = JSON.parse(text) as { kind?: string; message?: string; metadata?: { resourceVersion?: string } };
    message = body.kind === 'Status' ? (body.message ?? '') : `resourceVersion ${body.metadata?.resourceVersion ?? '?'}`;
  } catch {
    message = text.slice(0, 200);
  }
  return `${res.status} ${message}`;
}

// ---------------------------------------------------------------------------------------------------
// The lessons

const SSA_BASE = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
data:
`;

const ssa: Lesson = {
  id: 'ssa',
  title: 'Server-side apply and conflicts',
  summary: 'Two managers apply the same object; a conflict, a forced take-over, dropping a field and sharing one.',
  steps: [
    {
      title: 'Alice applies a ConfigMap',
      text: [
        'With server-side apply you send the fields you care about, and the API server remembers which field manager set each one.',
        'Load the manifest and apply it as the field manager "alice".',
      ],
      actions: [
        { kind: 'manifest', text: SSA_BASE + '  color: blue\n  size: small\n' },
        { kind: 'command', line: 'kubectl apply --server-side --field-manager=alice -f editor' },
      ],
      check: async (f) => {
        const { status, body } = await read(f, cmPath('settings'));
        if (status !== 200) return result(false, `configmap settings: ${status}`);
        const ok = owns(body, 'alice', ['f:data', 'f:color'], 'Apply') && owns(body, 'alice', ['f:data', 'f:size'], 'Apply');
        return result(ok, ok ? 'alice owns data.color and data.size' : 'alice does not own data.color and data.size');
      },
      hint: 'Apply with --server-side and --field-manager=alice so that alice is recorded as the owner.',
    },
    {
      title: 'Bob wants another colour: a conflict, then force',
      text: [
        'Bob applies color: red. The field belongs to alice and bob asks for a different value, so the server refuses with 409 Conflict and names the owner. Nothing changes.',
        'Bob may take the field over with --force-conflicts (force=true on the request): the value becomes red, bob owns data.color, and alice loses it. Alice keeps data.size.',
      ],
      actions: [
        { kind: 'manifest', text: SSA_BASE + '  color: red\n' },
        { kind: 'command', line: 'kubectl apply --server-side --field-manager=bob -f editor', expect: 'conflict with "alice"' },
        { kind: 'command', line: 'kubectl apply --server-side --field-manager=bob --force-conflicts -f editor', expect: 'serverside-applied' },
      ],
      check: async (f) => {
        const { status, body } = await read(f, cmPath('settings'));
        if (status !== 200) return result(false, `configmap settings: ${status}`);
        const ok = body.data?.color === 'red' && owns(body, 'bob', ['f:data', 'f:color']) && !owns(body, 'alice', ['f:data', 'f:color']) && owns(body, 'alice', ['f:data', 'f:size']);
        return result(ok, `color=${body.data?.color ?? '(none)'}; data.color owned by bob: ${owns(body, 'bob', ['f:data', 'f:color'])}, by alice: ${owns(body, 'alice', ['f:data', 'f:color'])}`);
      },
      hint: 'The first apply is refused with a conflict; run the second one, with --force-conflicts.',
    },
    {
      title: 'Bob drops the field',
      text: [
        'A manager drops a field by applying again without it. When no other manager owns the field, the server removes it from the object.',
        'Bob applies the ConfigMap with no data: data.color goes away; data.size, owned by alice, stays.',
      ],
      actions: [
        { kind: 'manifest', text: SSA_BASE.slice(0, -'data:\n'.length) },
        { kind: 'command', line: 'kubectl apply --server-side --field-manager=bob -f editor' },
      ],
      check: async (f) => {
        const { status, body } = await read(f, cmPath('settings'));
        if (status !== 200) return result(false, `configmap settings: ${status}`);
        const ok = body.data?.color === undefined && body.data?.size === 'small';
        return result(ok, `data: ${JSON.stringify(body.data ?? {})}`);
      },
      hint: 'Apply as bob a manifest without data.color.',
    },
    {
      title: 'Carol adopts a field by agreeing with it',
      text: [
        'Applying the same value as the current owner is not a conflict: both managers then own the field together (shared ownership).',
        'Carol applies size: small. Alice and carol now both own data.size; the field stays while either of them still applies it.',
      ],
      actions: [
        { kind: 'manifest', text: SSA_BASE + '  size: small\n' },
        { kind: 'command', line: 'kubectl apply --server-side --field-manager=carol -f editor' },
      ],
      check: async (f) => {
        const { status, body } = await read(f, cmPath('settings'));
        if (status !== 200) return result(false, `configmap settings: ${status}`);
        const ok = owns(body, 'alice', ['f:data', 'f:size']) && owns(body, 'carol', ['f:data', 'f:size']);
        return result(ok, ok ? 'alice and carol share data.size' : 'data.size is not shared by alice and carol');
      },
      hint: 'Apply as carol with the same value alice set (size: small).',
    },
  ],
};

const INVENTORY = `apiVersion: v1
kind: ConfigMap
metadata:
  name: inventory
  namespace: default
data:
  apples: "3"
`;

const managedFields: Lesson = {
  id: 'managed-fields',
  title: 'managedFields and ownership',
  summary: 'Every write records who set which fields: Update entries from create and label, Apply entries from server-side apply.',
  steps: [
    {
      title: 'Create an object',
      text: [
        'metadata.managedFields lists, per field manager and operation, the fields that manager set (in the fieldsV1 format: f:<name> for fields, k:/v: for list items).',
        '`kubectl create` records itself as the manager "kubectl-create" with the operation Update. Open the Managed fields tab to see it.',
      ],
      actions: [
        { kind: 'manifest', text: INVENTORY },
        { kind: 'command', line: 'kubectl create -f editor' },
      ],
      check: async (f) => {
        const { status, body } = await read(f, cmPath('inventory'));
        if (status !== 200) return result(false, `configmap inventory: ${status}`);
        const ok = owns(body, 'kubectl-create', ['f:data', 'f:apples'], 'Update');
        return result(ok, `managers: ${(body.metadata?.managedFields ?? []).map((m) => `${m.manager}/${m.operation}`).join(', ')}`);
      },
      hint: 'Create the ConfigMap with kubectl create -f editor.',
    },
    {
      title: 'Label it',
      text: ['`kubectl label` sends a patch (real kubectl names itself "kubectl-label" as the field manager): a second Update entry appears, owning only the label it set.'],
      actions: [{ kind: 'command', line: 'kubectl label configmap inventory tier=gold' }],
      check: async (f) => {
        const { body } = await read(f, cmPath('inventory'));
        const ok = owns(body, '*', ['f:metadata', 'f:labels', 'f:tier'], 'Update');
        return result(ok, `labels: ${JSON.stringify(body.metadata?.labels ?? {})}`);
      },
      hint: 'Run kubectl label configmap inventory tier=gold.',
    },
    {
      title: 'Apply it',
      text: [
        'A server-side apply adds an Apply entry for its manager. Fields set earlier by Update managers with the same value become shared; the Update entries keep the rest.',
      ],
      actions: [
        { kind: 'manifest', text: INVENTORY.replace('  apples: "3"\n', '  apples: "3"\n  pears: "5"\n') },
        { kind: 'command', line: 'kubectl apply --server-side --field-manager=gitops -f editor' },
      ],
      check: async (f) => {
        const { body } = await read(f, cmPath('inventory'));
        const ok = owns(body, 'gitops', ['f:data', 'f:pears'], 'Apply') && owns(body, '*', ['f:metadata', 'f:labels', 'f:tier'], 'Update');
        return result(ok, `managers: ${(body.metadata?.managedFields ?? []).map((m) => `${m.manager}/${m.operation}`).join(', ')}`);
      },
      hint: 'Apply with --server-side --field-manager=gitops.',
    },
  ],
};

const COUNTER = `apiVersion: v1
kind: ConfigMap
metadata:
  name: counter
  namespace: default
data:
  count: "1"
`;

/** A read-modify-write client: PUT of `obj` with `count` set, keeping the resourceVersion it read. */
function putCount(fetch: LessonFetch, obj: Obj, count: string): Promise<Response> {
  const next = { ...obj, data: { ...(obj.data ?? {}), count } };
  return fetch(cmPath('counter'), { method: 'PUT', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(next) });
}

const concurrency: Lesson = {
  id: 'concurrency',
  title: 'resourceVersion and optimistic concurrency',
  summary: 'Every write changes resourceVersion; an update carrying an old one is refused with 409 Conflict.',
  steps: [
    {
      title: 'Create a counter',
      text: ['Every object carries metadata.resourceVersion, an opaque string the server changes on every write.'],
      actions: [
        { kind: 'manifest', text: COUNTER },
        { kind: 'command', line: 'kubectl apply --server-side -f editor' },
      ],
      check: async (f) => {
        const { status, body } = await read(f, cmPath('counter'));
        return result(status === 200 && body.data?.count === '1', status === 200 ? `count=${body.data?.count}, resourceVersion ${body.metadata?.resourceVersion}` : `configmap counter: ${status}`);
      },
      hint: 'Apply the counter ConfigMap.',
    },
    {
      title: 'Two clients, one stale',
      text: [
        'Clients A and B both read the counter at the same resourceVersion. A writes count=2 with a PUT carrying that resourceVersion: it matches, the write succeeds and the resourceVersion changes.',
        'B then writes count=3 with the resourceVersion it read, now stale. The server refuses with 409 Conflict ("the object has been modified; please apply your changes to the latest version and try again") and the object keeps count=2. No write is lost.',
      ],
      actions: [
        {
          kind: 'script',
          label: 'Run both clients',
          describe: 'GET the counter twice, PUT count=2 from the first copy, then PUT count=3 from the second.',
          expect: '409 Operation cannot be fulfilled on configmaps "counter": the object has been modified; please apply your changes to the latest version and try again',
          run: async (f) => {
            const a = (await read(f, cmPath('counter'))).body;
            const b = (await read(f, cmPath('counter'))).body;
            const first = await putCount(f, a, '2');
            const second = await putCount(f, b, '3');
            return `A: PUT count=2 at resourceVersion ${a.metadata?.resourceVersion}: ${await statusLine(first)}\nB: PUT count=3 at resourceVersion ${b.metadata?.resourceVersion}: ${await statusLine(second)}\n`;
          },
        },
      ],
      check: async (f) => {
        const { body } = await read(f, cmPath('counter'));
        return result(body.data?.count === '2', `count=${body.data?.count ?? '(none)'}`);
      },
      hint: 'Run both clients: the first write succeeds, the second is refused.',
    },
    {
      title: 'Read again and retry',
      text: ['The refused client reads the object again (getting the new resourceVersion), reapplies its change and writes again. This read-modify-write loop is how controllers update objects safely.'],
      actions: [
        {
          kind: 'script',
          label: 'Retry as B',
          describe: 'GET the counter, PUT count=3 with the fresh resourceVersion.',
          run: async (f) => {
            const fresh = (await read(f, cmPath('counter'))).body;
            const res = await putCount(f, fresh, '3');
            return `B: PUT count=3 at resourceVersion ${fresh.metadata?.resourceVersion}: ${await statusLine(res)}\n`;
          },
        },
      ],
      check: async (f) => {
        const { body } = await read(f, cmPath('counter'));
        return result(body.data?.count === '3', `count=${body.data?.count ?? '(none)'}`);
      },
      hint: 'Retry with the current resourceVersion.',
    },
  ],
};

/** Event types of a watch from `rv` that ends after one second (timeoutSeconds=1). */
async function watchEvents(f: LessonFetch, rv: string): Promise<string> {
  const res = await f(`/api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true&timeoutSeconds=1&resourceVersion=${encodeURIComponent(rv)}`);
  if (!res.ok) return await statusLine(res);
  const lines = (await res.text()).split('\n').filter(Boolean);
  return lines
    .map((l) => {
      try {
        const e = JSON.parse(l) as { type?: string; object?: Obj };
        return `${e.type} ${e.object?.metadata?.name ?? ''} resourceVersion ${e.object?.metadata?.resourceVersion ?? ''}`;
      } catch {
        return l.slice(0, 80);
      }
    })
    .join('\n');
}

const WATCHED = `apiVersion: v1
kind: ConfigMap
metadata:
  name: watched
  namespace: default
data:
  step: "1"
`;

const watch: Lesson = {
  id: 'watch',
  title: 'Watch and bookmarks',
  summary: 'A list gives a resourceVersion; a watch from it streams every change after it, with bookmarks in between.',
  steps: [
    {
      title: 'Create an object to watch',
      text: [
        'A watch (?watch=1) streams ADDED, MODIFIED and DELETED events. Started from a list\'s resourceVersion it misses nothing that happened after the list.',
        'Open the Watch timeline tab to see the events arrive, then create the ConfigMap.',
      ],
      actions: [
        { kind: 'manifest', text: WATCHED },
        { kind: 'command', line: 'kubectl apply --server-side -f editor' },
      ],
      check: async (f) => {
        const { status } = await read(f, cmPath('watched'));
        return result(status === 200, `configmap watched: ${status}`);
      },
      hint: 'Apply the ConfigMap.',
    },
    {
      title: 'Change it and replay the changes',
      text: [
        'Label the object: the watch gets a MODIFIED event. A client that lost its connection resumes with the last resourceVersion it saw and gets what it missed, as long as it is still in the server\'s history window; older than that, the server answers 410 Gone and the client lists again.',
        'With allowWatchBookmarks=true the server also sends BOOKMARK events: an object with only a resourceVersion, telling the client how far it is up to date even when nothing it watches changes. The script starts a watch with resourceVersion=0: the server first sends the objects as they are now as ADDED events, then each change; the watch ends after one second (timeoutSeconds=1) and its events are printed.',
      ],
      actions: [
        { kind: 'command', line: 'kubectl label configmap watched stage=two' },
        { kind: 'script', label: 'Replay the watch', describe: 'GET ?watch=1&allowWatchBookmarks=true&timeoutSeconds=1 from resourceVersion 0.', run: (f) => watchEvents(f, '0'), expect: 'ADDED watched' },
      ],
      check: async (f) => {
        const { body } = await read(f, cmPath('watched'));
        return result(body.metadata?.labels?.stage === 'two', `labels: ${JSON.stringify(body.metadata?.labels ?? {})}`);
      },
      hint: 'Run kubectl label configmap watched stage=two.',
    },
    {
      title: 'Delete it',
      text: ['Deleting the object sends a DELETED event carrying its last state. A watch never reports the same change twice: each event has a newer resourceVersion than the one before.'],
      actions: [{ kind: 'command', line: 'kubectl delete configmap watched' }],
      check: async (f) => {
        const { status } = await read(f, cmPath('watched'));
        return result(status === 404, `configmap watched: ${status}`);
      },
      hint: 'Run kubectl delete configmap watched.',
    },
  ],
};

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.lessons.example.com
spec:
  group: lessons.example.com
  scope: Namespaced
  names:
    plural: widgets
    singular: widget
    kind: Widget
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [replicas, maxReplicas]
            x-kubernetes-validations:
            - rule: self.replicas <= self.maxReplicas
              message: replicas must not exceed maxReplicas
            properties:
              replicas:
                type: integer
              maxReplicas:
                type: integer
`;

const widget = (replicas: number, max: number) => `apiVersion: lessons.example.com/v1
kind: Widget
metadata:
  name: gizmo
  namespace: default
spec:
  replicas: ${replicas}
  maxReplicas: ${max}
`;

const widgetPath = '/apis/lessons.example.com/v1/namespaces/default/widgets/gizmo';

const cel: Lesson = {
  id: 'cel',
  title: 'CEL validation rules on a CRD',
  summary: 'x-kubernetes-validations: a rule written in CEL that every create and update of the custom resource must pass.',
  steps: [
    {
      title: 'Define a CRD with a rule',
      text: [
        'The Widget schema says, in CEL, that spec.replicas must not exceed spec.maxReplicas. `self` is the object at the place the rule is written (here spec). The server estimates each rule\'s cost when the CRD is written and refuses rules that could be too expensive.',
      ],
      actions: [
        { kind: 'manifest', text: CRD },
        { kind: 'command', line: 'kubectl apply --server-side -f editor' },
      ],
      check: async (f) => {
        const { status, body } = await read(f, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.lessons.example.com');
        const conditions = ((body.status?.conditions ?? []) as { type?: string; status?: string }[]);
        const ok = status === 200 && conditions.some((c) => c.type === 'Established' && c.status === 'True');
        return result(ok, status === 200 ? `conditions: ${conditions.map((c) => `${c.type}=${c.status}`).join(', ')}` : `CRD: ${status}`);
      },
      hint: 'Apply the CustomResourceDefinition.',
    },
    {
      title: 'A valid widget',
      text: ['replicas 2 with maxReplicas 3 passes the rule.'],
      actions: [
        { kind: 'manifest', text: widget(2, 3) },
        { kind: 'command', line: 'kubectl apply --server-side -f editor' },
      ],
      check: async (f) => {
        const { status, body } = await read(f, widgetPath);
        return result(status === 200, status === 200 ? `spec: ${JSON.stringify(body.spec)}` : `widget gizmo: ${status}`);
      },
      hint: 'Apply the Widget.',
    },
    {
      title: 'Break the rule, then fix it',
      text: [
        'replicas 5 with maxReplicas 3 fails the rule: the server answers 422 Invalid with the rule\'s message at spec, and the widget keeps replicas 2.',
        'Raising maxReplicas to 5 in the same apply makes it valid again.',
      ],
      actions: [
        { kind: 'manifest', text: widget(5, 3) },
        { kind: 'command', line: 'kubectl apply --server-side -f editor', expect: 'replicas must not exceed maxReplicas' },
        { kind: 'manifest', text: widget(5, 5) },
        { kind: 'command', line: 'kubectl apply --server-side -f editor' },
      ],
      check: async (f) => {
        const { body } = await read(f, widgetPath);
        return result(body.spec?.replicas === 5, `spec: ${JSON.stringify(body.spec ?? {})}`);
      },
      hint: 'The first apply is refused; apply the second manifest, with maxReplicas 5.',
    },
  ],
};

const HELD = `apiVersion: v1
kind: Namespace
metadata:
  name: scratch
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: held
  namespace: scratch
  finalizers:
  - lessons.example.com/hold
data:
  note: deleting me waits for my finalizer
`;

const finalizers: Lesson = {
  id: 'finalizers',
  title: 'Finalizers and a namespace stuck in Terminating',
  summary: 'A finalizer holds an object after its deletion until someone removes it; its namespace waits too.',
  steps: [
    {
      title: 'An object with a finalizer',
      text: ['metadata.finalizers lists keys that must all be removed before the object is really deleted. Controllers add one when they have cleanup to do.'],
      actions: [
        { kind: 'manifest', text: HELD },
        { kind: 'command', line: 'kubectl apply --server-side -f editor' },
      ],
      check: async (f) => {
        const { status, body } = await read(f, cmPath('held', 'scratch'));
        return result(status === 200 && (body.metadata?.finalizers ?? []).includes('lessons.example.com/hold'), status === 200 ? `finalizers: ${JSON.stringify(body.metadata?.finalizers ?? [])}` : `configmap held: ${status}`);
      },
      hint: 'Apply both documents (Namespace and ConfigMap).',
    },
    {
      title: 'Delete the namespace',
      text: [
        'Deleting a namespace sets its deletionTimestamp and phase Terminating; the namespace controller then deletes everything in it. The ConfigMap gets a deletionTimestamp but stays, held by its finalizer, so the namespace stays in Terminating, with a condition saying which finalizers remain.',
      ],
      actions: [{ kind: 'command', line: 'kubectl delete namespace scratch' }],
      check: async (f) => {
        const ns = await read(f, '/api/v1/namespaces/scratch');
        const cm = await read(f, cmPath('held', 'scratch'));
        const ok = ns.body.status?.phase === 'Terminating' && cm.status === 200 && Boolean(cm.body.metadata?.deletionTimestamp);
        return result(ok, `namespace: ${ns.status === 200 ? ns.body.status?.phase : ns.status}; configmap deletionTimestamp: ${cm.body.metadata?.deletionTimestamp ?? '(none)'}`);
      },
      hint: 'Run kubectl delete namespace scratch; the controller marks the ConfigMap for deletion within a second or two.',
    },
    {
      title: 'Remove the finalizer',
      text: [
        'Whoever owns a finalizer removes it when its cleanup is done. Here you are that controller: a merge patch sets finalizers to null (as `kubectl patch configmap held -n scratch --type=merge -p \'{"metadata":{"finalizers":null}}\'` would). The ConfigMap goes, then the namespace.',
      ],
      actions: [
        {
          kind: 'script',
          label: 'Remove the finalizer',
          describe: 'PATCH (merge) metadata.finalizers: null on configmap held in scratch.',
          run: async (f) => {
            const res = await f(cmPath('held', 'scratch'), { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json', Accept: 'application/json' }, body: JSON.stringify({ metadata: { finalizers: null } }) });
            return `PATCH configmap held: ${await statusLine(res)}\n`;
          },
        },
      ],
      check: async (f) => {
        const ns = await read(f, '/api/v1/namespaces/scratch');
        return result(ns.status === 404, ns.status === 404 ? 'namespace scratch is gone' : `namespace scratch: ${ns.body.status?.phase ?? ns.status}`);
      },
      hint: 'Remove the finalizer; the namespace controller finishes within a few seconds.',
    },
  ],
};

const gc: Lesson = {
  id: 'gc',
  title: 'Garbage collection',
  summary: 'ownerReferences tie a dependent to its owner; deleting the owner deletes the dependents (cascade).',
  steps: [
    {
      title: 'An owner',
      text: ['Any object can own others. Create the owner first: a dependent names it by uid.'],
      actions: [
        { kind: 'manifest', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: parent\n  namespace: default\ndata:\n  role: owner\n' },
        { kind: 'command', line: 'kubectl apply --server-side -f editor' },
      ],
      check: async (f) => {
        const { status } = await read(f, cmPath('parent'));
        return result(status === 200, `configmap parent: ${status}`);
      },
      hint: 'Apply the parent ConfigMap.',
    },
    {
      title: 'A dependent',
      text: ['metadata.ownerReferences names the owner by apiVersion, kind, name and uid. Since the uid is only known once the owner exists, the script reads it and creates the child.'],
      actions: [
        {
          kind: 'script',
          label: 'Create the child',
          describe: 'GET configmap parent, then POST configmap child with an ownerReference to its uid.',
          run: async (f) => {
            const parent = (await read(f, cmPath('parent'))).body;
            const child = {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: 'child', namespace: 'default', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid: parent.metadata?.uid }] },
              data: { role: 'dependent' },
            };
            const res = await f('/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(child) });
            return `POST configmap child (owner uid ${parent.metadata?.uid}): ${await statusLine(res)}\n`;
          },
        },
      ],
      check: async (f) => {
        const parent = await read(f, cmPath('parent'));
        const child = await read(f, cmPath('child'));
        const ok = child.status === 200 && (child.body.metadata?.ownerReferences ?? []).some((r) => r.uid === parent.body.metadata?.uid);
        return result(ok, child.status === 200 ? `ownerReferences: ${JSON.stringify(child.body.metadata?.ownerReferences ?? [])}` : `configmap child: ${child.status}`);
      },
      hint: 'Run the script; it needs the parent to exist.',
    },
    {
      title: 'Delete the owner',
      text: [
        'kubectl deletes with propagation Background by default: the owner goes at once and the garbage collector then deletes its dependents. (Foreground deletes the dependents first; Orphan removes the ownerReferences and keeps them.)',
      ],
      actions: [{ kind: 'command', line: 'kubectl delete configmap parent' }],
      check: async (f) => {
        const child = await read(f, cmPath('child'));
        return result(child.status === 404, child.status === 404 ? 'the child was collected' : `configmap child: ${child.status}`);
      },
      hint: 'Delete the parent; the garbage collector removes the child within a few seconds.',
    },
  ],
};

const RBAC = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: configmap-reader
  namespace: default
rules:
- apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: jane-reads-configmaps
  namespace: default
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: User
  name: jane
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: configmap-reader
`;

const rbac: Lesson = {
  id: 'rbac',
  title: 'RBAC and access reviews',
  summary: 'Roles grant verbs on resources, bindings give roles to users; access reviews and --as show the result.',
  steps: [
    {
      title: 'Nothing allowed yet',
      text: [
        'RBAC denies by default. `kubectl auth can-i ... --as jane` asks the server, impersonating jane, whether she may act (a SelfSubjectAccessReview). Run it: the answer is no.',
        'Then apply a Role that allows reading ConfigMaps in default and a RoleBinding that gives it to jane.',
      ],
      actions: [
        { kind: 'command', line: 'kubectl auth can-i list configmaps --as jane', expect: 'no' },
        { kind: 'manifest', text: RBAC },
        { kind: 'command', line: 'kubectl apply --server-side -f editor' },
      ],
      check: async (f) => {
        const allowed = await accessReview(f, 'jane', 'list', 'configmaps');
        return result(allowed === true, `SubjectAccessReview jane list configmaps in default: ${allowed === undefined ? 'failed' : allowed ? 'allowed' : 'denied'}`);
      },
      hint: 'Apply the Role and the RoleBinding.',
    },
    {
      title: 'Act as jane',
      text: [
        'With --as jane the terminal sends Impersonate-User: jane, so the request is authorized as jane. She can list ConfigMaps now but not delete them: that answer is 403 Forbidden.',
        'Give her delete as well by adding the verb to the Role, and check again.',
      ],
      actions: [
        { kind: 'command', line: 'kubectl get configmaps --as jane', expect: 'kube-root-ca.crt' },
        { kind: 'command', line: 'kubectl auth can-i delete configmaps --as jane', expect: 'no' },
        { kind: 'manifest', text: RBAC.replace('verbs: [get, list, watch]', 'verbs: [get, list, watch, delete]') },
        { kind: 'command', line: 'kubectl apply --server-side -f editor' },
        { kind: 'command', line: 'kubectl auth can-i delete configmaps --as jane', expect: 'yes' },
      ],
      check: async (f) => {
        const allowed = await accessReview(f, 'jane', 'delete', 'configmaps');
        return result(allowed === true, `SubjectAccessReview jane delete configmaps in default: ${allowed === undefined ? 'failed' : allowed ? 'allowed' : 'denied'}`);
      },
      hint: 'Add delete to the Role\'s verbs and apply it.',
    },
  ],
};

const POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: require-owner-label
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [configmaps]
  validations:
  - expression: "has(object.metadata.labels) && 'owner' in object.metadata.labels"
    message: every ConfigMap needs an owner label
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: require-owner-label
spec:
  policyName: require-owner-label
  validationActions: [Deny]
  matchResources:
    namespaceSelector:
      matchLabels:
        kubernetes.io/metadata.name: default
`;

const LABELLED = (labelled: boolean) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: labelled
  namespace: default
${labelled ? '  labels:\n    owner: team-a\n' : ''}data:
  ok: "yes"
`;

const admission: Lesson = {
  id: 'admission',
  title: 'Admission policy',
  summary: 'A ValidatingAdmissionPolicy checks writes with CEL; a binding decides where and how it is enforced.',
  steps: [
    {
      title: 'A policy and its binding',
      text: [
        'A ValidatingAdmissionPolicy holds CEL expressions over the incoming `object` (and `oldObject`, `request`, `params`). It does nothing until a ValidatingAdmissionPolicyBinding selects where it applies and what a failure does (Deny, Warn, Audit).',
        'This one requires an owner label on ConfigMaps in the default namespace.',
      ],
      actions: [
        { kind: 'manifest', text: POLICY },
        { kind: 'command', line: 'kubectl apply --server-side -f editor' },
      ],
      check: async (f) => {
        const p = await read(f, '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/require-owner-label');
        const b = await read(f, '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/require-owner-label');
        return result(p.status === 200 && b.status === 200, `policy: ${p.status}, binding: ${b.status}`);
      },
      hint: 'Apply both documents.',
    },
    {
      title: 'Refused, then admitted',
      text: [
        'A ConfigMap without the label is refused (403 Forbidden, naming the policy and its message). With the label it is admitted.',
      ],
      actions: [
        { kind: 'manifest', text: LABELLED(false) },
        { kind: 'command', line: 'kubectl apply --server-side -f editor', expect: 'every ConfigMap needs an owner label' },
        { kind: 'manifest', text: LABELLED(true) },
        { kind: 'command', line: 'kubectl apply --server-side -f editor' },
      ],
      check: async (f) => {
        const { status, body } = await read(f, cmPath('labelled'));
        return result(status === 200 && body.metadata?.labels?.owner === 'team-a', status === 200 ? `labels: ${JSON.stringify(body.metadata?.labels ?? {})}` : `configmap labelled: ${status}`);
      },
      hint: 'The first apply is refused by the policy; apply the second manifest, with the owner label.',
    },
  ],
};

export const LESSONS: Lesson[] = [ssa, managedFields, concurrency, watch, cel, finalizers, gc, rbac, admission];

export function lessonById(id: string | null | undefined): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}
