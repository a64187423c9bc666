// What refused a request, read from the real Status message: the RBAC authorizer (`pods is forbidden: User
// "jane" cannot list resource "pods" in API group "" in the namespace "default"`), a ValidatingAdmissionPolicy
// (`... ValidatingAdmissionPolicy 'P' with binding 'B' denied request: failed expression: ...`), PodSecurity
// (`pods "x" is forbidden: violates PodSecurity "restricted:latest": ...`) or a ResourceQuota
// (`... exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2`). Pure, tested without a browser.
import type { RequestAttributes } from './rules.js';

export interface StatusBody {
  kind?: string;
  code?: number;
  reason?: string;
  message?: string;
  details?: { name?: string; group?: string; kind?: string };
}

export type Refusal =
  | { kind: 'rbac'; message: string; user: string; attributes: RequestAttributes }
  | { kind: 'policy'; message: string; policy: string; binding?: string; detail: string; expression?: string }
  | { kind: 'pod-security'; message: string; level: string; version: string; violations: { check: string; detail?: string }[] }
  | { kind: 'quota'; message: string; quota: string; requested: Record<string, string>; used: Record<string, string>; limited: Record<string, string> }
  | { kind: 'quota-missing'; message: string; quota: string; detail: string };

/** A Go %q string (`"jane"`), unquoted; the common escapes only. */
function unquote(q: string): string {
  try {
    return JSON.parse(q) as string;
  } catch {
    return q.slice(1, -1);
  }
}

const GO_STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const RBAC_RESOURCE = new RegExp(
  String.raw`User (${GO_STRING}) cannot (\S+) resource (${GO_STRING}) in API group (${GO_STRING}) (?:in the namespace (${GO_STRING})|at the cluster scope)`,
);
const RBAC_PATH = new RegExp(String.raw`User (${GO_STRING}) cannot (\S+) path (${GO_STRING})`);
/** The `<resource>[.group] "name" is forbidden: ` prefix of apierrors.NewForbidden. */
const FORBIDDEN_PREFIX = new RegExp(String.raw`^\S+? (${GO_STRING}) is forbidden: `);

/** HTML-escaped characters of the authorizer's message (the real server sanitizes `&`, `<`, `>`). */
const unsanitize = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** `k=v,k2=v2` (quota's prettyPrint) as a record. */
function pairs(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of s.split(',')) {
    const i = p.indexOf('=');
    if (i > 0) out[p.slice(0, i).trim()] = p.slice(i + 1).trim();
  }
  return out;
}

/** Splits at commas outside parentheses, brackets and quotes. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out.filter(Boolean);
}

export function parseRefusal(status: unknown): Refusal | undefined {
  const s = status as StatusBody | null | undefined;
  if (!s || s.kind !== 'Status' || typeof s.message !== 'string') return undefined;
  const message = s.message;

  const vap = /ValidatingAdmissionPolicy '([^']*)'(?: with binding '([^']*)')? denied request: (.*)$/s.exec(message);
  if (vap) {
    const detail = vap[3];
    const out: Refusal = { kind: 'policy', message, policy: vap[1], detail };
    if (vap[2] !== undefined) out.binding = vap[2];
    const failed = /^failed expression: (.*)$/s.exec(detail);
    if (failed) out.expression = failed[1];
    return out;
  }

  const pss = /violates PodSecurity "([^":]*):([^"]*)": (.*)$/s.exec(message);
  if (pss) {
    const violations = splitTopLevel(pss[3]).map((v) => {
      const m = /^(.*?) \((.*)\)$/s.exec(v);
      return m ? { check: m[1], detail: m[2] } : { check: v };
    });
    return { kind: 'pod-security', message, level: pss[1], version: pss[2], violations };
  }

  const quota = /exceeded quota: ([^,]+), requested: (.*), used: (.*), limited: (.*)$/s.exec(message);
  if (quota) return { kind: 'quota', message, quota: quota[1], requested: pairs(quota[2]), used: pairs(quota[3]), limited: pairs(quota[4]) };
  const missing = /failed quota: ([^:]+): (.*)$/s.exec(message);
  if (missing) return { kind: 'quota-missing', message, quota: missing[1], detail: missing[2] };

  if (s.code !== 403 && s.reason !== 'Forbidden') return undefined;
  const named = FORBIDDEN_PREFIX.exec(message);
  const r = RBAC_RESOURCE.exec(message);
  if (r) {
    const [resource, subresource = ''] = unquote(r[3]).split('/', 2);
    const attributes: RequestAttributes = {
      verb: r[2],
      resourceRequest: true,
      apiGroup: unquote(r[4]),
      resource,
      subresource,
      namespace: r[5] !== undefined ? unquote(r[5]) : '',
      name: named ? unquote(named[1]) : (s.details?.name ?? ''),
      path: '',
    };
    return { kind: 'rbac', message, user: unsanitize(unquote(r[1])), attributes };
  }
  const p = RBAC_PATH.exec(message);
  if (p) {
    const attributes: RequestAttributes = { verb: p[2], resourceRequest: false, apiGroup: '', resource: '', subresource: '', namespace: '', name: '', path: unsanitize(unquote(p[3])) };
    return { kind: 'rbac', message, user: unsanitize(unquote(p[1])), attributes };
  }
  return undefined;
}

/** `list pods in namespace "default"`, `get pods/log "web" in namespace "x"`, `get path /healthz`. */
export function describeAttributes(a: RequestAttributes): string {
  if (!a.resourceRequest) return `${a.verb} path ${a.path}`;
  const resource = `${a.subresource ? `${a.resource}/${a.subresource}` : a.resource}${a.apiGroup ? `.${a.apiGroup}` : ''}`;
  return `${a.verb} ${resource}${a.name ? ` "${a.name}"` : ''} ${a.namespace ? `in namespace "${a.namespace}"` : 'at the cluster scope'}`;
}
