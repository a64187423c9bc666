// Parses a request path into what it addresses, as k8s.io/apiserver/pkg/endpoints/request.RequestInfoFactory
// does: `/api/v1/namespaces/ns/pods/name/status`, `/apis/apps/v1/deployments`, plus the non-resource paths.

export type ResourceVerb =
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'update'
  | 'patch'
  | 'delete'
  | 'deletecollection';

export interface ResourceRequestInfo {
  isResourceRequest: true;
  /** 'api' for the core group, 'apis' for named groups. */
  apiPrefix: 'api' | 'apis';
  /** As spelled in the path (may be a `svc` alias); see canonicalGroup. */
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  verb: ResourceVerb;
  /** Path segments after the resource/name/subresource (e.g. proxy paths); normally empty. */
  rest: string[];
  /** The verb came from the legacy `/watch/` path prefix (`/api/v1/watch/...`), not from the method. */
  watchPath?: true;
}

export interface NonResourceRequestInfo {
  isResourceRequest: false;
  path: string;
  verb: string;
  /** For discovery paths: which level was addressed. */
  discovery?: { apiPrefix: 'api' | 'apis'; group?: string; version?: string };
}

export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

export { canonicalGroup } from '../util/spelling.js';

/**
 * The segments of a request path as the engine routes on them. `path` is the path exactly as the client
 * sent it (percent-encoded, never dot-resolved): trailing slashes are trimmed (as the real RequestInfoFactory
 * and router do), the rest is split on `/`, and each segment is percent-decoded on its own, so
 * `%2F` stays inside its segment and `%2e%2e` is the name `..` (refused later as a name), never a step up.
 * `undefined` when a segment is empty (`//` at the start or inside): no route of the real server matches that.
 */
export function pathSegments(path: string): string[] | undefined {
  // `//api/...` is no route of the real server either (its API prefixes are matched literally)
  if (!path.startsWith('/') || path.startsWith('//')) return path === '/' ? [] : undefined;
  const trimmed = path.slice(1).replace(/\/+$/, '');
  if (trimmed === '') return [];
  const raw = trimmed.split('/');
  if (raw.some((s) => s === '')) return undefined;
  return raw.map(safeDecode);
}

export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const m = method.toUpperCase();
  const nonResource = (): NonResourceRequestInfo => ({ isResourceRequest: false, path, verb: m.toLowerCase() });
  const parts = pathSegments(path);
  if (parts === undefined || parts.length === 0) return nonResource();
  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return nonResource();

  let i = 1;
  let group = '';
  if (prefix === 'apis') {
    if (parts.length < 3) {
      return { ...nonResource(), discovery: { apiPrefix: 'apis', group: parts[1] } };
    }
    group = parts[1];
    i = 2;
  } else if (parts.length < 2) {
    return { ...nonResource(), discovery: { apiPrefix: 'api' } };
  }
  const version = parts[i++];
  if (i >= parts.length) {
    return { ...nonResource(), discovery: { apiPrefix: prefix, group: group || undefined, version } };
  }
  let rest = parts.slice(i);
  // the legacy watch paths: `watch` right after the version makes the request a watch whatever the method
  // and query say (RequestInfoFactory's path-prefix verbs); a bare `/watch` addresses nothing
  const watchPath = rest[0] === 'watch';
  if (watchPath) {
    if (rest.length < 2) return nonResource();
    rest = rest.slice(1);
  }
  let namespace = '';
  // /namespaces/{ns}/{resource}... ; but /namespaces and /namespaces/{name}(/status|/finalize) address namespaces themselves
  if (rest[0] === 'namespaces' && rest.length >= 3 && rest[2] !== 'status' && rest[2] !== 'finalize') {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const resource = rest[0] ?? '';
  const name = rest[1] ?? '';
  const subresource = rest[2] ?? '';
  const tail = rest.slice(3);

  let verb: ResourceVerb;
  switch (m) {
    case 'GET':
    case 'HEAD':
      verb = name ? 'get' : 'list';
      // a subresource is only ever read (GET of pods/x/status with watch=true is a get)
      if (isWatch(query) && !subresource) verb = 'watch';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name ? 'delete' : 'deletecollection';
      break;
    default:
      verb = 'get';
  }
  if (watchPath) verb = 'watch';
  return {
    isResourceRequest: true,
    apiPrefix: prefix,
    group,
    version,
    resource,
    subresource,
    namespace,
    name,
    verb,
    rest: tail,
    ...(watchPath ? { watchPath: true as const } : {}),
  };
}

/** `watch` is a boolean query parameter: present with "", "1" or "true" (k8s parses it with strconv.ParseBool). */
export function isWatch(query: URLSearchParams): boolean {
  if (!query.has('watch')) return false;
  const v = query.get('watch') ?? '';
  return v === '' || v === '1' || v === 'true' || v === 't' || v === 'T' || v === 'TRUE' || v === 'True';
}

function safeDecode(s: string): string {
  // nothing to decode in most segments
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
