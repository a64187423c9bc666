// The impersonation layer (endpoints/filters/impersonation.go): Impersonate-User, -Group, -Uid and
// -Extra-<key> headers, each checked with the `impersonate` verb on users / serviceaccounts / groups /
// uids / userextras for the authenticated requester; the first refusal is the real 403.

import { StatusError } from '../errors.js';
import type { Attributes, Authorizer } from './attributes.js';
import { forbiddenError } from './authorize.js';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS, serviceAccountGroups, serviceAccountUsername, splitServiceAccountUsername, type UserInfo } from './user.js';
import type { EngineHeaderReader } from '../endpoints/wire.js';

interface Impersonation {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  namespace?: string;
  name: string;
  apiVersion?: string;
  /** UserExtra: the extra key. */
  fieldPath?: string;
}

const EXTRA_PREFIX = 'impersonate-extra-';

function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Go's %v of an ObjectReference list, as the "without impersonating a user" error prints it. */
function goRefs(refs: Impersonation[]): string {
  return `[${refs.map((r) => `{${r.kind} ${r.namespace ?? ''} ${r.name}  ${r.apiVersion ?? ''}  ${r.fieldPath ?? ''}}`).join(' ')}]`;
}

function requests(headers: EngineHeaderReader): Impersonation[] {
  const out: Impersonation[] = [];
  const user = headers.get('Impersonate-User') ?? '';
  if (user) {
    const sa = splitServiceAccountUsername(user);
    out.push(sa ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name } : { kind: 'User', name: user });
  }
  const groups = headerValues(headers, 'Impersonate-Group');
  for (const g of groups) out.push({ kind: 'Group', name: g });
  let hasExtra = false;
  const extraHeaders: [string, string][] = [];
  headers.forEach((value, name) => {
    if (name.toLowerCase().startsWith(EXTRA_PREFIX)) extraHeaders.push([name, value]);
  });
  for (const [name, value] of extraHeaders) {
    hasExtra = true;
    const key = unescapeExtraKey(name.toLowerCase().slice(EXTRA_PREFIX.length));
    for (const v of value.split(',').map((s) => s.trim())) out.push({ kind: 'UserExtra', name: v, apiVersion: 'authentication.k8s.io/v1', fieldPath: key });
  }
  const uid = headers.get('Impersonate-Uid') ?? '';
  if (uid) out.push({ kind: 'UID', name: uid, apiVersion: 'authentication.k8s.io/v1' });
  if ((groups.length || hasExtra || uid) && !user) {
    // responsewriters.InternalError: a plain-text 500
    throw new StatusError(
      { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `requested ${goRefs(out)} without impersonating a user`, reason: 'InternalError', code: 500 },
    );
  }
  return out;
}

/** Repeated headers arrive joined by ", " in the Fetch API; each value is one group. */
function headerValues(headers: EngineHeaderReader, name: string): string[] {
  const v = headers.get(name);
  if (v === null) return [];
  return v.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

export function impersonate(headers: EngineHeaderReader, requester: UserInfo, authorizer: Authorizer): UserInfo {
  const reqs = requests(headers);
  if (reqs.length === 0) return requester;
  const groupsSpecified = headers.get('Impersonate-Group') !== null;
  let username = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  let uid = '';
  for (const r of reqs) {
    const attrs: Attributes = {
      user: requester, verb: 'impersonate', resourceRequest: true, path: '',
      apiGroup: r.kind === 'UserExtra' || r.kind === 'UID' ? 'authentication.k8s.io' : '', apiVersion: r.kind === 'UserExtra' || r.kind === 'UID' ? 'v1' : '',
      resource: '', subresource: '', namespace: r.namespace ?? '', name: r.name,
    };
    switch (r.kind) {
      case 'ServiceAccount':
        attrs.resource = 'serviceaccounts';
        username = serviceAccountUsername(r.namespace!, r.name);
        if (!groupsSpecified) groups = serviceAccountGroups(r.namespace!);
        break;
      case 'User':
        attrs.resource = 'users';
        username = r.name;
        break;
      case 'Group':
        attrs.resource = 'groups';
        groups.push(r.name);
        break;
      case 'UserExtra':
        attrs.resource = 'userextras';
        attrs.subresource = r.fieldPath!;
        (extra[r.fieldPath!] ??= []).push(r.name);
        break;
      case 'UID':
        attrs.resource = 'uids';
        uid = r.name;
        break;
    }
    const answer = authorizer.authorize(attrs);
    if (answer.decision !== 'allow') throw forbiddenError(attrs, answer.reason);
  }
  if (username !== ANONYMOUS) {
    if (!groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) {
    groups.push(ALL_UNAUTHENTICATED);
  }
  const user: UserInfo = { name: username, groups };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length) user.extra = extra;
  return user;
}

