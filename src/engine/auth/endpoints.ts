// The virtual (create-only, never stored) resources of authentication and authorization:
// SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview
// (authorization.k8s.io/v1), SelfSubjectReview (authentication.k8s.io/v1) and the TokenRequest
// subresource `serviceaccounts/token`. Each answers as the real registry's REST Create does.

import { rfc3339, type Env } from '../env.js';
import { GoRepr, badRequest, fieldErr, invalid, notFound, type FieldError } from '../errors.js';
import { decodeProtobufObject } from '../codec/protobuf/decode.js';
import { goQuote } from '../codec/go-format.js';
import { readLimitedBody } from '../codec/read-body.js';
import { isPlainObject } from '../object.js';
import { decodeBody } from '../codec/decode.js';
import { objectKey } from '../registry/keys.js';
import type { ClusterState } from '../registry/state.js';
import type { ResourceRequestInfo } from '../endpoints/request-info.js';
import { bodyMediaType, negotiate, PROTOBUF, PROTOBUF_SVC } from '../endpoints/negotiation/media.js';
import { respond } from '../endpoints/responders.js';
import { canonicalGroup } from '../util/spelling.js';
import { nonResourceAttributes, resourceAttributes, type Attributes, type Authorizer } from './attributes.js';
import { API_AUDIENCE, type ServiceAccountTokens } from './service-account-tokens.js';
import type { UserInfo } from './user.js';
import type { EngineResponse } from '../endpoints/wire.js';
import type { EngineRequest } from '../endpoints/wire.js';

export interface AuthEndpointContext {
  request: EngineRequest;
  user: UserInfo;
  authorizer: Authorizer;
  state: ClusterState;
  tokens: ServiceAccountTokens;
  env: Env;
  pretty: boolean;
  /** The user a bearer token authenticates as (static or service-account token), for TokenReview. */
  reviewToken?(token: string): UserInfo | { error: string } | undefined;
}

const AUTHZ = 'authorization.k8s.io';
const AUTHN = 'authentication.k8s.io';

type Kind = 'SubjectAccessReview' | 'LocalSubjectAccessReview' | 'SelfSubjectAccessReview' | 'SelfSubjectRulesReview' | 'SelfSubjectReview' | 'TokenReview' | 'TokenRequest';

/** Which virtual endpoint a request addresses, if any. */
export function authEndpointKind(info: ResourceRequestInfo): Kind | undefined {
  const group = canonicalGroup(info.group);
  if (group === AUTHZ && info.version === 'v1' && !info.name) {
    if (info.resource === 'subjectaccessreviews' && !info.namespace) return 'SubjectAccessReview';
    if (info.resource === 'selfsubjectaccessreviews' && !info.namespace) return 'SelfSubjectAccessReview';
    if (info.resource === 'selfsubjectrulesreviews' && !info.namespace) return 'SelfSubjectRulesReview';
    if (info.resource === 'localsubjectaccessreviews' && info.namespace) return 'LocalSubjectAccessReview';
  }
  if (group === AUTHN && info.version === 'v1' && info.resource === 'selfsubjectreviews' && !info.name && !info.namespace) return 'SelfSubjectReview';
  if (group === AUTHN && info.version === 'v1' && info.resource === 'tokenreviews' && !info.name && !info.namespace) return 'TokenReview';
  if (group === '' && info.version === 'v1' && info.resource === 'serviceaccounts' && info.subresource === 'token' && info.namespace && info.name) return 'TokenRequest';
  return undefined;
}

async function readObject(ctx: AuthEndpointContext, kind: string, group: string): Promise<Record<string, unknown>> {
  const ct = bodyMediaType(ctx.request.headers.get('Content-Type'));
  const bytes = await readLimitedBody(ctx.request);
  // kubectl's typed clients send protobuf
  const value = ct.full === PROTOBUF || ct.full === PROTOBUF_SVC
    ? decodeProtobufObject(bytes, { expectKind: kind, expectApiVersion: `${group}/v1` }).object
    : decodeBody(bytes, ct.format === 'yaml' ? 'yaml' : 'json').value;
  if (value === null || value === undefined) return {};
  if (!isPlainObject(value)) throw badRequest(`the object provided is unrecognized (must be of type ${kind})`);
  const o = value as Record<string, unknown>;
  if (o.kind !== undefined && o.kind !== kind) {
    throw badRequest(`${String(o.kind)} in version "v1" cannot be handled as a ${kind}: no kind "${String(o.kind)}" is registered for version "${group}/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"`);
  }
  return o;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const obj = (v: unknown): Record<string, unknown> | undefined => (isPlainObject(v) ? (v as Record<string, unknown>) : undefined);

/** ResourceAttributes in the API's field order, without empty fields. */
function cleanResourceAttributes(ra: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name']) if (str(ra[k])) out[k] = str(ra[k]);
  return out;
}

function cleanSpec(spec: Record<string, unknown>, self: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const ra = obj(spec.resourceAttributes);
  const nra = obj(spec.nonResourceAttributes);
  if (ra) out.resourceAttributes = cleanResourceAttributes(ra);
  if (nra) {
    const n: Record<string, string> = {};
    if (str(nra.path)) n.path = str(nra.path);
    if (str(nra.verb)) n.verb = str(nra.verb);
    out.nonResourceAttributes = n;
  }
  if (!self) {
    if (str(spec.user)) out.user = str(spec.user);
    if (strs(spec.groups).length) out.groups = strs(spec.groups);
    const extra = obj(spec.extra);
    if (extra && Object.keys(extra).length) out.extra = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, strs(v)]));
    if (str(spec.uid)) out.uid = str(spec.uid);
  }
  return out;
}

/** ValidateSubjectAccessReviewSpec (and the self/local variants). */
function validateSpec(spec: Record<string, unknown>, kind: Kind, namespace: string): FieldError[] {
  const errs: FieldError[] = [];
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  // field.Invalid prints a nil pointer as "null" and a struct with %#v
  const goNra = () => { const n = obj(nra) ?? {}; return new GoRepr(`authorization.NonResourceAttributes{Path:${goQuote(str(n.path))}, Verb:${goQuote(str(n.verb))}}`); };
  if (ra && nra) errs.push(fieldErr.invalid('spec.nonResourceAttributes', goNra(), 'cannot be specified in combination with resourceAttributes'));
  if (!ra && !nra) errs.push(fieldErr.invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (kind === 'LocalSubjectAccessReview') {
    if (nra) errs.push(fieldErr.invalid('spec.nonResourceAttributes', goNra(), 'disallowed on this kind of request'));
    const ns = str(obj(ra)?.namespace);
    if (ra && ns !== namespace) errs.push(fieldErr.invalid('spec.resourceAttributes.namespace', ns, 'must match metadata.namespace'));
  }
  if ((kind === 'SubjectAccessReview' || kind === 'LocalSubjectAccessReview') && !str(spec.user) && strs(spec.groups).length === 0) {
    errs.push(fieldErr.invalid('spec.user', str(spec.user), 'at least one of user or group must be specified'));
  }
  return errs;
}

function attributesOf(user: UserInfo, spec: Record<string, unknown>): Attributes {
  const ra = obj(spec.resourceAttributes);
  if (ra) {
    return resourceAttributes(user, {
      verb: str(ra.verb), namespace: str(ra.namespace), apiGroup: str(ra.group), apiVersion: str(ra.version),
      resource: str(ra.resource), subresource: str(ra.subresource), name: str(ra.name),
    });
  }
  const nra = obj(spec.nonResourceAttributes) ?? {};
  return nonResourceAttributes(user, str(nra.verb), str(nra.path));
}

function reviewStatus(authorizer: Authorizer, a: Attributes): Record<string, unknown> {
  const answer = authorizer.authorize(a);
  const status: Record<string, unknown> = { allowed: answer.decision === 'allow' };
  if (answer.decision === 'deny') status.denied = true;
  if (answer.reason) status.reason = answer.reason;
  if (answer.error) status.evaluationError = answer.error;
  return status;
}

function metadataOf(o: Record<string, unknown>, namespace?: string): Record<string, unknown> {
  const m = { ...(obj(o.metadata) ?? {}) };
  if (namespace !== undefined && !m.namespace) m.namespace = namespace;
  const { creationTimestamp: _c, ...rest } = m;
  return { ...rest, creationTimestamp: null };
}

export async function handleAuthEndpoint(kind: Kind, info: ResourceRequestInfo, ctx: AuthEndpointContext): Promise<EngineResponse> {
  const group = kind === 'TokenRequest' || kind === 'SelfSubjectReview' || kind === 'TokenReview' ? AUTHN : AUTHZ;
  const apiVersion = `${group}/v1`;
  // the answer in the negotiated representation (typed clients ask for protobuf first), chosen before the body is read
  const negotiated = negotiate(ctx.request.headers.get('Accept'), { cbor: false, allowAs: false, protobuf: true });
  const body = await readObject(ctx, kind, group);
  const spec = obj(body.spec) ?? {};
  const ok = (out: Record<string, unknown>) => respond(201, out, { pretty: ctx.pretty, negotiated });
  switch (kind) {
    case 'SubjectAccessReview':
    case 'LocalSubjectAccessReview':
    case 'SelfSubjectAccessReview': {
      const ns = kind === 'LocalSubjectAccessReview' ? info.namespace : undefined;
      const meta = metadataOf(body, ns);
      if (kind === 'LocalSubjectAccessReview' && meta.namespace !== info.namespace) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      const errs = validateSpec(spec, kind, info.namespace);
      if (errs.length) throw invalid({ group: AUTHZ, kind }, '', errs);
      const self = kind === 'SelfSubjectAccessReview';
      const subject: UserInfo = self
        ? ctx.user
        : { name: str(spec.user), groups: strs(spec.groups), uid: str(spec.uid) || undefined, extra: obj(spec.extra) as Record<string, string[]> | undefined };
      const status = reviewStatus(ctx.authorizer, attributesOf(subject, spec));
      return ok({ kind, apiVersion, metadata: meta, spec: cleanSpec(spec, self), status });
    }
    case 'SelfSubjectRulesReview': {
      const namespace = str(spec.namespace);
      if (!namespace) throw badRequest('no namespace on request');
      const rules = ctx.authorizer.rulesFor(ctx.user, namespace);
      const status: Record<string, unknown> = { resourceRules: rules.resourceRules, nonResourceRules: rules.nonResourceRules, incomplete: rules.incomplete };
      if (rules.evaluationError) status.evaluationError = rules.evaluationError;
      return ok({ kind, apiVersion, metadata: metadataOf(body), spec: {}, status });
    }
    case 'SelfSubjectReview': {
      const u = ctx.user;
      const userInfo: Record<string, unknown> = { username: u.name };
      if (u.uid) userInfo.uid = u.uid;
      if (u.groups.length) userInfo.groups = u.groups;
      if (u.extra && Object.keys(u.extra).length) userInfo.extra = u.extra;
      return ok({ kind, apiVersion, metadata: { creationTimestamp: rfc3339(ctx.env.clock.now()) }, status: { userInfo } });
    }
    case 'TokenRequest':
      return ok(await tokenRequest(info, ctx, body, spec, apiVersion));
    case 'TokenReview': {
      // the TokenReview REST: a token is required; the answer says whom it authenticates, if anyone
      const token = str(spec.token);
      if (!token) throw badRequest('token is required for TokenReview in authentication');
      const audiences = strs(spec.audiences);
      const found = ctx.reviewToken?.(token);
      const status: Record<string, unknown> = { user: {} };
      if (found && !('error' in found)) {
        const u: Record<string, unknown> = { username: found.name };
        if (found.uid) u.uid = found.uid;
        if (found.groups.length) u.groups = found.groups;
        if (found.extra && Object.keys(found.extra).length) u.extra = found.extra;
        status.authenticated = true;
        status.user = u;
        status.audiences = audiences.length ? audiences : [API_AUDIENCE];
      } else if (found && 'error' in found) status.error = found.error;
      return ok({ kind, apiVersion, metadata: metadataOf(body), spec: { ...spec }, status });
    }
  }
}

const MIN_EXPIRATION_S = 600;
const MAX_EXPIRATION_S = 2 ** 32;

/** The TokenRequest REST of serviceaccounts/token. */
async function tokenRequest(info: ResourceRequestInfo, ctx: AuthEndpointContext, body: Record<string, unknown>, spec: Record<string, unknown>, apiVersion: string): Promise<Record<string, unknown>> {
  const meta = obj(body.metadata) ?? {};
  const gk = { group: AUTHN, kind: 'TokenRequest' };
  if (str(meta.name) && meta.name !== info.name) {
    throw invalid(gk, info.name, [fieldErr.invalid('metadata.name', meta.name, 'must match the service account name if specified')]);
  }
  if (str(meta.namespace) && meta.namespace !== info.namespace) {
    throw invalid(gk, info.name, [fieldErr.invalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified')]);
  }
  const expirationSeconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : 3600;
  const errs: FieldError[] = [];
  if (expirationSeconds < MIN_EXPIRATION_S) errs.push(fieldErr.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (expirationSeconds > MAX_EXPIRATION_S) errs.push(fieldErr.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  if (errs.length) throw invalid(gk, '', errs);
  const sa = ctx.state.get(objectKey('', 'serviceaccounts', info.namespace, info.name))?.object;
  if (!sa) throw notFound({ group: '', resource: 'serviceaccounts' }, info.name);
  const audiences = strs(spec.audiences).length ? strs(spec.audiences) : [API_AUDIENCE];
  const issued = await ctx.tokens.issue({ namespace: info.namespace, name: info.name, uid: sa.metadata?.uid ?? '' }, audiences, expirationSeconds);
  return {
    kind: 'TokenRequest',
    apiVersion,
    metadata: { ...meta, creationTimestamp: null },
    spec: { audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
    status: { token: issued.token, expirationTimestamp: rfc3339(issued.expires) },
  };
}
