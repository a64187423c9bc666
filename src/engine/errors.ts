// The engine raises errors only as StatusError; the responder (endpoints/responders.ts) turns them into
// HTTP responses. Shapes and messages follow k8s.io/apimachinery/pkg/api/errors and
// k8s.io/apimachinery/pkg/util/validation/field as the real v1.33 server writes them.

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never> | { resourceVersion?: string };
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

export class StatusError extends Error {
  readonly status: Status;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;
  /** Warnings gathered before the request failed (answered as Warning headers with the error, as the real server does). */
  warnings?: string[];
  constructor(status: Status, headers: Record<string, string> = {}) {
    super(status.message ?? status.reason ?? 'error');
    this.status = status;
    this.headers = headers;
  }
  get code(): number {
    return this.status.code;
  }
}

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}

/** A resource as errors name it: `configmaps`, or `deployments.apps` for a named group. */
export interface GroupResource {
  group: string;
  resource: string;
}

export function qualified(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

function failure(code: number, reason: string | undefined, message: string, details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code };
  if (reason) s.reason = reason;
  if (details) s.details = details;
  // keep the real key order: kind, apiVersion, metadata, status, message, reason, details, code
  return { kind: s.kind, apiVersion: s.apiVersion, metadata: s.metadata, status: s.status, message: s.message,
    ...(s.reason ? { reason: s.reason } : {}), ...(s.details ? { details: s.details } : {}), code: s.code };
}

function grDetails(gr: GroupResource, name: string | undefined): StatusDetails {
  const d: StatusDetails = {};
  if (name !== undefined && name !== '') d.name = name;
  if (gr.group) d.group = gr.group;
  d.kind = gr.resource;
  return d;
}

export function notFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(failure(404, 'NotFound', `${qualified(gr)} "${name}" not found`, grDetails(gr, name)));
}

export function alreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError(
    failure(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists`, grDetails(gr, name)),
  );
}

/** 409 Conflict, e.g. the optimistic-concurrency failure of a stale update. */
export function conflict(gr: GroupResource, name: string, reason: string): StatusError {
  return new StatusError(
    failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${reason}`, grDetails(gr, name)),
  );
}

export const OBJECT_MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';

export function badRequest(message: string): StatusError {
  return new StatusError(failure(400, 'BadRequest', message));
}

export function methodNotSupported(gr: GroupResource, action: string): StatusError {
  return new StatusError(
    failure(405, 'MethodNotAllowed', `${action} is not supported on resources of kind "${qualified(gr)}"`, grDetails(gr, undefined)),
  );
}

export function notAcceptable(message: string): StatusError {
  return new StatusError(failure(406, 'NotAcceptable', message));
}

export function unsupportedMediaType(contentType: string): StatusError {
  return new StatusError(failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${contentType}`));
}

export function gone(message: string): StatusError {
  return new StatusError(failure(410, 'Expired', message));
}

export function resourceExpired(message: string): StatusError {
  return gone(message);
}

export function forbidden(gr: GroupResource, name: string, message: string): StatusError {
  const subject = name ? `${qualified(gr)} "${name}"` : qualified(gr);
  return new StatusError(failure(403, 'Forbidden', `${subject} is forbidden: ${message}`, grDetails(gr, name)));
}

export function timeout(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError(
    failure(504, 'Timeout', message, { retryAfterSeconds }),
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

export function tooLargeResourceVersion(current: number, requested: number, retryAfterSeconds = 1): StatusError {
  // storage.NewTooLargeResourceVersionError -> errors.NewTimeoutError with a ResourceVersionTooLarge cause
  const st = failure(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds,
  });
  return new StatusError(st, { 'Retry-After': String(retryAfterSeconds) });
}

export function internalError(message: string): StatusError {
  return new StatusError(
    failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }),
  );
}

export function requestEntityTooLarge(message: string): StatusError {
  return new StatusError(failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`));
}

export function tooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError(failure(429, 'TooManyRequests', message, { retryAfterSeconds }), {
    'Retry-After': String(retryAfterSeconds),
  });
}

// ---------------------------------------------------------------------------------------------------
// Field errors (k8s.io/apimachinery/pkg/util/validation/field)

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

const TYPE_STRING: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** A value omitted from the message (field.omitValue). */
export const OMIT = Symbol('omit');

export interface FieldError {
  type: FieldErrorType;
  field: string;
  value?: unknown;
  detail: string;
}

/** A value whose Go rendering is given literally, e.g. `[]string{"foo"}` (field.Error prints %#v for slices). */
export class GoRepr {
  constructor(readonly text: string) {}
}

/** Go's %#v-ish rendering used by field.Error for the bad value. */
export function renderValue(v: unknown): string {
  if (v instanceof GoRepr) return v.text;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(renderValue).join(', ')}}`;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function fieldErrorBody(e: FieldError): string {
  const t = TYPE_STRING[e.type];
  let s: string;
  switch (e.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'InternalError':
      s = t;
      break;
    default:
      if (e.value === OMIT) s = t;
      else s = `${t}: ${renderValue(e.value)}`;
  }
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

export function fieldErrorString(e: FieldError): string {
  return e.field ? `${e.field}: ${fieldErrorBody(e)}` : fieldErrorBody(e);
}

export const fieldErr = {
  required: (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail }),
  invalid: (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, value, detail }),
  notSupported: (field: string, value: unknown, supported: string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    value,
    detail: supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '',
  }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, value, detail: '' }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail }),
  tooLong: (field: string, _value: unknown, max: number): FieldError => ({
    type: 'FieldValueTooLong', field, detail: `may not be more than ${max} bytes`,
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany', field, value: actual, detail: `must have at most ${max} items`,
  }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field, value, detail }),
  notFound: (field: string, value: unknown): FieldError => ({ type: 'FieldValueNotFound', field, value, detail: '' }),
  internal: (field: string, detail: string): FieldError => ({ type: 'InternalError', field, detail }),
};

/** 422 Invalid with one cause per field error (errors.NewInvalid). `kind` is the Kind, e.g. `ConfigMap`. */
export function invalid(groupKind: { group: string; kind: string }, name: string, errs: FieldError[]): StatusError {
  const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
  const agg = errs.length === 1 ? fieldErrorString(errs[0]) : `[${errs.map(fieldErrorString).join(', ')}]`;
  const qualifiedKind = groupKind.group ? `${groupKind.kind}.${groupKind.group}` : groupKind.kind;
  const details: StatusDetails = {};
  if (name) details.name = name;
  if (groupKind.group) details.group = groupKind.group;
  details.kind = groupKind.kind;
  details.causes = causes;
  return new StatusError(failure(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${agg}`, details));
}
