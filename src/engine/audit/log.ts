// The audit layer [K8S apiserver filters/audit_init.go, filters/audit.go, pkg/audit/context.go]: every
// request gets an audit ID (the client's Audit-ID header, else a new UUID) answered in the `Audit-Id`
// header; once the requester is known the policy chooses a level, and at that level the request's events
// go to the sinks: RequestReceived, ResponseStarted (long-running requests: watches and streams), and
// ResponseComplete when the answer (or the stream) ends. Handlers, admission plugins and the filters add
// annotations through the request's context; the engine keeps the latest events in a ring.

import { load } from 'js-yaml';
import { rfc3339Micro, type Env } from '../env.js';
import type { Attributes } from '../auth/attributes.js';
import type { UserInfo } from '../auth/user.js';
import { observeRequestBody } from '../codec/read-body.js';
import { decodeProtobufObject, hasProtobufPrefix } from '../codec/protobuf/decode.js';
import { PolicyEvaluator } from './policy.js';
import { levelLess, type AuditEvent, type EventUser, type Policy, type RequestAuditConfig, type ResponseStatus, type Stage } from './types.js';
import { EngineResponse } from '../endpoints/wire.js';
import type { EngineRequest, EngineHeaderReader } from '../endpoints/wire.js';

/** Receives every event written (the Node host's log file; tests). */
export type AuditSink = (event: AuditEvent) => void;

/** How many events the engine keeps for `/x-playground/audit`. */
export const AUDIT_RING_SIZE = 1000;

const HEADER_AUDIT_ID = 'Audit-Id';
const MAX_USER_AGENT = 1024;

// ---------------------------------------------------------------------------------------------------
// Where the layer meets the rest of the engine without threading a context through every call: the
// request's audit context, and the object a response was written from.

// Kept as symbol-keyed properties of the Request and Response objects rather than in WeakMaps: a weak
// map entry per request is work for every garbage collection, a property is not.
const CONTEXT = Symbol('auditContext');
const RESPONSE_OBJECT = Symbol('responseObject');

type WithContext = EngineRequest & { [CONTEXT]?: AuditContext };
type WithObject = EngineResponse & { [RESPONSE_OBJECT]?: unknown };

/** The audit context of a request, if the audit layer saw it. */
export function auditContextOf(request: EngineRequest): AuditContext | undefined {
  return (request as WithContext)[CONTEXT];
}

/** Remembers the object a response was encoded from (the response object of RequestResponse events). */
export function noteResponseObject(res: EngineResponse, object: unknown | (() => unknown)): EngineResponse {
  (res as WithObject)[RESPONSE_OBJECT] = object;
  return res;
}

/** The object a response was written from (a function given to noteResponseObject is called now). */
function responseObjectOf(res: EngineResponse): unknown {
  const o = (res as WithObject)[RESPONSE_OBJECT];
  return typeof o === 'function' ? (o as () => unknown)() : o;
}

/** A response rebuilt from another (headers added) keeps the object it was written from. */
export function carryResponseObject(from: EngineResponse, to: EngineResponse): EngineResponse {
  const o = (from as WithObject)[RESPONSE_OBJECT];
  if (o !== undefined) (to as WithObject)[RESPONSE_OBJECT] = o;
  return to;
}

/** Adds an audit annotation to the request's event (admission plugins: `attributes.audit.annotate`). */
export interface AuditAnnotator {
  annotate(key: string, value: string): void;
}

export const NO_AUDIT: AuditAnnotator = { annotate: () => undefined };

function eventUser(u: UserInfo): EventUser {
  const out: EventUser = { username: u.name };
  if (u.uid) out.uid = u.uid;
  if (u.groups.length) out.groups = [...u.groups];
  if (u.extra && Object.keys(u.extra).length) out.extra = structuredClone(u.extra);
  return out;
}

/** Drops metadata.managedFields of an object, of a list's items and of a Table's row objects. */
function withoutManagedFields(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = structuredClone(v) as Record<string, unknown>;
  const strip = (x: unknown) => {
    const m = (x as { metadata?: Record<string, unknown> } | null)?.metadata;
    if (m && typeof m === 'object') delete m.managedFields;
  };
  strip(o);
  if (Array.isArray(o.items)) o.items.forEach(strip);
  if (o.kind === 'Table' && Array.isArray(o.rows)) for (const r of o.rows as Array<{ object?: unknown }>) strip(r?.object);
  return o;
}

/** The body of a request as its event records it: JSON or YAML as an object, protobuf decoded; else nothing. */
function decodeRequestBody(bytes: Uint8Array, contentType: string): unknown {
  if (bytes.byteLength === 0) return undefined;
  const type = contentType.split(';')[0].trim().toLowerCase();
  try {
    if (type.endsWith('protobuf')) return hasProtobufPrefix(bytes) ? decodeProtobufObject(bytes).object : undefined;
    const text = new TextDecoder().decode(bytes);
    if (type.endsWith('yaml')) return load(text) ?? undefined;
    if (type === '' || type.endsWith('json')) return JSON.parse(text);
  } catch {
    return undefined;
  }
  return undefined;
}

/** utilnet.SourceIPs: X-Forwarded-For, then X-Real-Ip, then the peer's address when it differs from the last. */
function sourceIPs(headers: EngineHeaderReader, remote: string | undefined): string[] {
  const ips: string[] = [];
  for (const part of (headers.get('X-Forwarded-For') ?? '').split(',')) {
    const ip = part.trim();
    if (ip && isIp(ip)) ips.push(ip);
  }
  const real = (headers.get('X-Real-Ip') ?? '').trim();
  if (ips.length === 0 && real && isIp(real)) ips.push(real);
  if (remote) {
    const r = remote.replace(/^::ffff:(?=\d+\.)/, '');
    if (ips[ips.length - 1] !== r) ips.push(r);
  }
  return ips;
}

function isIp(s: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(s) || (s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s));
}

// ---------------------------------------------------------------------------------------------------

/** The cluster's audit log: the policy in effect, the sinks, and the latest events. */
export class AuditLog {
  private evaluator: PolicyEvaluator | undefined;
  private readonly ring: AuditEvent[] = [];
  private readonly sinks: AuditSink[] = [];
  private written = 0;

  constructor(
    private readonly env: Env,
    policy?: Policy,
    readonly capacity = AUDIT_RING_SIZE,
  ) {
    this.setPolicy(policy);
  }

  /** The policy in effect (none: no events are written, as a server without --audit-policy-file). */
  setPolicy(policy: Policy | undefined): void {
    this.evaluator = policy ? new PolicyEvaluator(policy) : undefined;
  }

  get policy(): Policy | undefined {
    return this.evaluator?.policy;
  }

  addSink(sink: AuditSink): void {
    this.sinks.push(sink);
  }

  /** The kept events, oldest first, and how many were written in all. */
  events(): { items: AuditEvent[]; total: number } {
    return { items: [...this.ring], total: this.written };
  }

  /** A request arrives: its audit ID and received time (WithAuditInit). */
  begin(request: EngineRequest, requestURI: string, remoteAddr?: string): AuditContext {
    const id = request.headers.get('Audit-ID') || this.env.ids.uid();
    const ctx = new AuditContext(this, this.env, request, id, requestURI, remoteAddr);
    (request as WithContext)[CONTEXT] = ctx;
    return ctx;
  }

  evaluate(a: Attributes, authenticated: boolean): RequestAuditConfig | undefined {
    return this.evaluator?.evaluate(a, authenticated);
  }

  /** ProcessEvents: a copy of the event to every sink and into the ring. */
  write(event: AuditEvent): void {
    const copy = structuredClone(event);
    this.written++;
    this.ring.push(copy);
    if (this.ring.length > this.capacity) this.ring.splice(0, this.ring.length - this.capacity);
    for (const s of this.sinks) {
      try {
        s(structuredClone(copy));
      } catch {
        // a sink that fails never fails the request
      }
    }
  }
}

/**
 * One request's audit event as it grows through the pipeline. Nothing of the event is built before the
 * policy has chosen a level above None: without a policy (or at None) a request pays for its audit ID, its
 * received time (a number) and the `Audit-Id` header only.
 */
export class AuditContext implements AuditAnnotator {
  private config: RequestAuditConfig | undefined;
  private readonly received: number;
  /** The event, made when the policy chooses a level above None. */
  private event: AuditEvent | undefined;
  /** Annotations added before the policy ran (kept for the event, if there is one). */
  private early: Record<string, string> | undefined;
  /** The policy ran and writes nothing for this request: annotations are dropped at once. */
  private off = false;
  private requestBody: Promise<unknown> | undefined;
  /** The request's object as decoded (create, update): recorded instead of the body as sent. */
  private decodedRequest: { object: unknown } | undefined;
  /**
   * Set by a handler that decodes the body into an object (create, update): its event records the object
   * only once decoded, as the real handlers call LogRequestObject after a decode that succeeded. A body that
   * could not be decoded (malformed, wrong kind, unknown fields under Strict) leaves no requestObject and
   * does not complete the objectRef.
   */
  private decodes: 'pending' | 'done' | undefined;
  private done = false;

  constructor(
    private readonly log: AuditLog,
    private readonly env: Env,
    private readonly request: EngineRequest,
    readonly auditID: string,
    private readonly requestURI: string,
    private readonly remoteAddr: string | undefined,
  ) {
    this.received = env.clock.now();
  }

  /** Whether events are written for this request (false before the policy ran and at level None). */
  get enabled(): boolean {
    return this.config !== undefined && this.config.level !== 'None';
  }

  get level() {
    return this.config?.level ?? 'None';
  }

  /**
   * The requester is known (after authentication): the policy chooses the level; the event gets the
   * request's metadata and RequestReceived is written. `authenticated` false: authentication failed (the
   * event has no user, and only its ResponseStarted stage is written, as WithFailedAuthenticationAudit).
   */
  start(attrs: Attributes, authenticated = true): void {
    if (this.config || this.off) return;
    const config = this.log.evaluate(attrs, authenticated);
    if (!config || config.level === 'None') {
      // nothing is written for this request (no policy, or level None): no event is ever made
      this.off = true;
      this.early = undefined;
      return;
    }
    this.config = config;
    const ev: AuditEvent = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: config.level,
      auditID: this.auditID,
      stage: 'ResponseStarted',
      requestURI: this.requestURI,
      verb: attrs.verb,
      user: {},
      requestReceivedTimestamp: rfc3339Micro(this.received),
      stageTimestamp: '',
    };
    if (this.early) ev.annotations = this.early;
    this.early = undefined;
    this.event = ev;
    const ua = this.request.headers.get('User-Agent') ?? '';
    if (ua) ev.userAgent = ua.length > MAX_USER_AGENT ? `${ua.slice(0, MAX_USER_AGENT)}...TRUNCATED` : ua;
    const ips = sourceIPs(this.request.headers, this.remoteAddr);
    if (ips.length) ev.sourceIPs = ips;
    if (authenticated) ev.user = eventUser(attrs.user);
    if (attrs.resourceRequest) {
      ev.objectRef = {
        ...(attrs.resource ? { resource: attrs.resource } : {}),
        ...(attrs.namespace ? { namespace: attrs.namespace } : {}),
        ...(attrs.name ? { name: attrs.name } : {}),
        ...(attrs.apiGroup ? { apiGroup: attrs.apiGroup } : {}),
        ...(attrs.apiVersion ? { apiVersion: attrs.apiVersion } : {}),
        ...(attrs.subresource ? { subresource: attrs.subresource } : {}),
      };
    }
    if (!levelLess(config.level, 'Metadata')) observeRequestBody(this.request, (bytes) => {
      this.requestBody = Promise.resolve(decodeRequestBody(bytes, this.request.headers.get('Content-Type') ?? ''));
    });
    if (authenticated) this.process('RequestReceived');
  }

  /** Whether the event records the request's object (its level is Request or above). */
  get recordsRequestObject(): boolean {
    return this.config !== undefined && !levelLess(this.config.level, 'Request');
  }

  /**
   * LogRequestObject: the request's object as the handler decoded it (defaulted, apiVersion/kind of the
   * request), which the event records instead of the body as sent. Patches keep their body as sent
   * (LogRequestPatch), and so does a request whose handler never decodes an object.
   */
  requestObject(decoded: () => unknown): void {
    this.decodes = 'done';
    if (this.recordsRequestObject) this.decodedRequest = { object: decoded() };
  }

  /** The handler will decode the body into an object (see `decodes`). */
  decodesRequestObject(): void {
    this.decodes ??= 'pending';
  }

  /** Impersonation replaced the requester (LogImpersonatedUser). */
  impersonated(user: UserInfo): void {
    if (!this.event) return;
    this.event.impersonatedUser = eventUser(user);
  }

  /** AddAuditAnnotation: the first value of a key stays. */
  annotate(key: string, value: string): void {
    if (this.off) return;
    const a = this.event ? (this.event.annotations ??= {}) : (this.early ??= {});
    if (key in a) return;
    a[key] = value;
  }

  /**
   * The response: the `Audit-Id` header, the status, and the remaining stages. A long-running response
   * (watch, streams) writes ResponseStarted now and ResponseComplete when its body ends.
   */
  /** Set by the pipeline: a watch or a stream (BasicLongRunningRequestCheck). */
  longRunning = false;
  /** Set by the pipeline when authentication failed: the event's message (getAuthMethods). */
  failedAuthentication: string | undefined;

  finish(res: EngineResponse): EngineResponse | Promise<EngineResponse> {
    const out = withAuditIdHeader(res, this.auditID);
    // no event for this request: the header is all (no promise to wait for)
    if (!this.event || this.done) return out;
    return this.complete(res, out);
  }

  private async complete(res: EngineResponse, out: EngineResponse): Promise<EngineResponse> {
    const { longRunning, failedAuthentication } = this;
    const ev = this.event!;
    this.done = true;
    const status = await this.statusOf(res);
    const level = this.level;
    const omit = this.config!.omitManagedFields;
    if (failedAuthentication !== undefined) {
      // the 401's Status replaces the "Authentication failed" message once written, as the real writer logs it
      ev.responseStatus = status ?? { metadata: {}, message: failedAuthentication, code: res.status };
      const obj = levelLess(level, 'RequestResponse') ? undefined : responseObjectOf(res);
      if (obj !== undefined) ev.responseObject = obj;
      this.process('ResponseStarted');
      return out;
    }
    ev.responseStatus = status ?? { metadata: {}, code: res.status };
    if (this.requestBody && !levelLess(level, 'Metadata') && this.decodes !== 'pending') {
      const body = await this.requestBody;
      if (body !== undefined && body !== null && typeof body === 'object') {
        const meta = (body as { metadata?: Record<string, unknown> }).metadata;
        if (meta && typeof meta === 'object') {
          const ref = (ev.objectRef ??= {});
          if (!ref.namespace && typeof meta.namespace === 'string' && meta.namespace) ref.namespace = meta.namespace;
          if (!ref.name && typeof meta.name === 'string' && meta.name) ref.name = meta.name;
          if (!ref.uid && typeof meta.uid === 'string' && meta.uid) ref.uid = meta.uid;
          if (!ref.resourceVersion && typeof meta.resourceVersion === 'string' && meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
        }
        if (!levelLess(level, 'Request')) {
          const logged = this.decodedRequest ? this.decodedRequest.object : body;
          ev.requestObject = omit ? withoutManagedFields(logged) : logged;
        }
      }
    }
    if (!levelLess(level, 'RequestResponse')) {
      const obj = responseObjectOf(res);
      if (obj !== undefined) ev.responseObject = omit ? withoutManagedFields(obj) : obj;
    }
    if (!longRunning || !res.streaming) {
      if (longRunning) this.process('ResponseStarted');
      this.process('ResponseComplete');
      return out;
    }
    this.process('ResponseStarted');
    // ResponseComplete when the stream ends, however it ends
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.process('ResponseComplete');
    };
    const body = new ReadableStream<Uint8Array>({
      pull: async (c) => {
        try {
          const { done, value } = await reader.read();
          if (done) {
            end();
            c.close();
          } else if (value) c.enqueue(value);
        } catch (e) {
          end();
          c.error(e);
        }
      },
      cancel: async (reason) => {
        end();
        await reader.cancel(reason).catch(() => undefined);
      },
    });
    const wrapped = new EngineResponse(body, { status: out.status, statusText: out.statusText, headers: out.headers });
    return carryResponseObject(res, wrapped);
  }

  /** The Status of an error response (or of a delete's success) as the event records it. */
  private async statusOf(res: EngineResponse): Promise<ResponseStatus | undefined> {
    const obj = responseObjectOf(res) as Record<string, unknown> | undefined;
    if (!obj || obj.kind !== 'Status') return undefined;
    const s: ResponseStatus = { metadata: {} };
    if (typeof obj.status === 'string' && obj.status) s.status = obj.status;
    if (typeof obj.message === 'string' && obj.message) s.message = obj.message;
    if (typeof obj.reason === 'string' && obj.reason) s.reason = obj.reason;
    if (obj.details && typeof obj.details === 'object') s.details = structuredClone(obj.details);
    s.code = typeof obj.code === 'number' && obj.code ? obj.code : res.status;
    return s;
  }

  private process(stage: Stage): void {
    const ev = this.event;
    if (!ev || !this.config) return;
    if (this.config.omitStages.includes(stage)) return;
    ev.stage = stage;
    ev.stageTimestamp = stage === 'RequestReceived' ? ev.requestReceivedTimestamp : rfc3339Micro(this.env.clock.now());
    this.log.write(ordered(ev));
  }
}

/** The event's fields in the order the real server writes them. */
function ordered(ev: AuditEvent): AuditEvent {
  const keys: Array<keyof AuditEvent> = [
    'kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'impersonatedUser', 'sourceIPs', 'userAgent',
    'objectRef', 'responseStatus', 'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations',
  ];
  const out: Record<string, unknown> = {};
  for (const k of keys) if (ev[k] !== undefined) out[k] = k === 'annotations' ? sortedKeys(ev.annotations!) : ev[k];
  return out as unknown as AuditEvent;
}

function sortedKeys(m: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k];
  return out;
}

function withAuditIdHeader(res: EngineResponse, id: string): EngineResponse {
  if (!res.headers.get(HEADER_AUDIT_ID)) res.headers.set(HEADER_AUDIT_ID, id);
  return res;
}

/** getAuthMethods: the message of a request's failed-authentication event. */
export function failedAuthenticationMessage(request: EngineRequest, query: URLSearchParams): string {
  const methods: string[] = [];
  const auth = (request.headers.get('Authorization') ?? '').trim();
  if (/^basic\s/i.test(auth)) methods.push('basic');
  const parts = auth.split(' ');
  if (parts.length > 1 && parts[0].toLowerCase() === 'bearer') methods.push('bearer');
  if ((query.get('access_token') ?? '').trim()) methods.push('access_token');
  return methods.length ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}

/** BasicLongRunningRequestCheck of kube-apiserver: watches, proxies and the streaming subresources. */
export function isLongRunning(a: { resourceRequest: boolean; verb: string; subresource: string }): boolean {
  if (!a.resourceRequest) return false;
  return a.verb === 'watch' || a.verb === 'proxy' || ['attach', 'exec', 'proxy', 'log', 'portforward'].includes(a.subresource);
}

/** The deprecation annotations of a request to a deprecated version (metrics.MonitorRequest). */
export function annotateDeprecated(ctx: AuditAnnotator, warning: string): void {
  ctx.annotate('k8s.io/deprecated', 'true');
  const removed = /unavailable in v(\d+\.\d+)\+/.exec(warning);
  if (removed) ctx.annotate('k8s.io/removed-release', removed[1]);
}
