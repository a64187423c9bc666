// CertificateSigningRequests (certificates.k8s.io/v1): the strategy records the requesting user in the spec
// on create and keeps spec and status out of main-resource updates; /approval changes only the conditions
// (Approved/Denied), /status everything else of the status. ValidateCertificateSigningRequest(Create, Update,
// StatusUpdate, ApprovalUpdate) and the printer (NAME, AGE, SIGNERNAME, REQUESTOR, REQUESTEDDURATION, CONDITION).

import { GoRepr, fieldErr, type FieldError } from '../../errors.js';
import { rfc3339 } from '../../env.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition, StrategyContext } from '../../registry/types.js';
import { isDNS1123Subdomain } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { a, ageColumn, col, humanDuration, o, str } from '../common/printers.js';

const KEY_USAGES = [
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment',
  'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing',
  'email protection', 's/mime', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing',
  'microsoft sgc', 'netscape sgc',
];
const APPROVAL_TYPES = ['Approved', 'Denied'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const LEGACY_SIGNER = 'kubernetes.io/legacy-unknown';
const PEM_REQUEST = /^-----BEGIN CERTIFICATE REQUEST-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE REQUEST-----\s*$/;

/** The request's bytes as field.Invalid prints a []byte value (%#v). */
function goBytes(bytes: Uint8Array): GoRepr {
  return new GoRepr(`[]byte{${Array.from(bytes, (b) => `0x${b.toString(16)}`).join(', ')}}`);
}

function requestBytes(v: unknown): Uint8Array {
  if (typeof v !== 'string') return new Uint8Array();
  try {
    return Uint8Array.from(atob(v), (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array();
  }
}

function validateSignerName(signer: string): FieldError[] {
  const p = 'spec.signerName';
  if (!signer) return [fieldErr.required(p, '')];
  const slash = signer.indexOf('/');
  if (slash < 0) return [fieldErr.invalid(p, signer, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const domain = signer.slice(0, slash);
  const errs: FieldError[] = [];
  for (const m of isDNS1123Subdomain(domain)) errs.push(fieldErr.invalid(p, signer, `validating domain component: ${m}`));
  if (signer === LEGACY_SIGNER) errs.push(fieldErr.invalid(p, signer, 'the legacy signerName is not allowed via this API version'));
  return errs;
}

function validateSpec(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  const bytes = requestBytes(spec.request);
  if (spec.request === undefined || spec.request === '' || spec.request === null) errs.push(fieldErr.required('spec.request', ''));
  else if (!PEM_REQUEST.test(new TextDecoder().decode(bytes))) errs.push(fieldErr.invalid('spec.request', goBytes(bytes), 'PEM block type must be CERTIFICATE REQUEST'));
  const usages = Array.isArray(spec.usages) ? spec.usages.map(str) : [];
  if (usages.length === 0) errs.push(fieldErr.required('spec.usages', 'usages must be provided'));
  const seen = new Set<string>();
  usages.forEach((u, i) => {
    if (!KEY_USAGES.includes(u)) errs.push(fieldErr.notSupported(`spec.usages[${i}]`, u, KEY_USAGES));
    if (seen.has(u)) errs.push(fieldErr.duplicate(`spec.usages[${i}]`, u));
    seen.add(u);
  });
  errs.push(...validateSignerName(str(spec.signerName)));
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) {
    errs.push(fieldErr.invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  return errs;
}

function validateConditions(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const p = 'status.conditions';
  const seen = new Set<string>();
  a(o(obj.status).conditions).forEach((c, i) => {
    const type = str(c.type);
    const status = str(c.status);
    if (!type) errs.push(fieldErr.required(`${p}[${i}].type`, ''));
    if (APPROVAL_TYPES.includes(type) || type === 'Failed') {
      if (seen.has(type)) errs.push(fieldErr.duplicate(`${p}[${i}].type`, type));
      seen.add(type);
    }
    if (!status) errs.push(fieldErr.required(`${p}[${i}].status`, ''));
    else if (APPROVAL_TYPES.includes(type) && status !== 'True') errs.push(fieldErr.notSupported(`${p}[${i}].status`, status, ['True']));
    else if (!CONDITION_STATUSES.includes(status)) errs.push(fieldErr.notSupported(`${p}[${i}].status`, status, CONDITION_STATUSES));
  });
  if (seen.has('Approved') && seen.has('Denied')) {
    errs.push(fieldErr.invalid(p, new GoRepr('[]certificates.CertificateSigningRequestCondition{...}'), 'Approved and Denied conditions are mutually exclusive'));
  }
  return errs;
}

const countOf = (obj: KubeObject, type: string): number => a(o(obj.status).conditions).filter((c) => c.type === type).length;

/** Approved and Denied conditions change only through /approval, and never go away once set. */
function validateApprovalChange(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
  const errs = validateConditions(obj);
  for (const t of APPROVAL_TYPES) {
    if (countOf(obj, t) < countOf(old, t)) errs.push(fieldErr.forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(t)}`));
    if (ctx.subresource === 'status' && countOf(obj, t) > countOf(old, t)) errs.push(fieldErr.forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(t)}`));
  }
  const cert = str(o(obj.status).certificate);
  const oldCert = str(o(old.status).certificate);
  if (oldCert && cert !== oldCert) errs.push(fieldErr.forbidden('status.certificate', 'updates may not modify existing certificate content'));
  return errs;
}

/** Conditions without timestamps get the time of the write (populateConditionTimestamps). */
function stampConditions(obj: KubeObject, old: KubeObject | undefined, now: number): void {
  const time = rfc3339(now);
  const before = a(o(old?.status).conditions);
  for (const c of a(o(obj.status).conditions)) {
    c.lastUpdateTime ??= time;
    if (c.lastTransitionTime === undefined) {
      const prev = before.find((b) => b.type === c.type);
      c.lastTransitionTime = prev && prev.status === c.status ? prev.lastTransitionTime ?? time : time;
    }
  }
}

function condition(obj: KubeObject): string {
  const types: string[] = [];
  for (const c of a(o(obj.status).conditions)) if (c.status === 'True' || c.status === undefined) types.push(str(c.type));
  if (str(o(obj.status).certificate)) types.push('Issued');
  return types.length ? types.join(',') : 'Pending';
}

export const certificatesigningrequests = builtin('certificates.k8s.io', 'v1', 'certificatesigningrequests', {
  // the real validation accepts any name the path allows
  nameValidator: () => [],
  prepareForCreate: (obj, ctx) => {
    obj.status = {};
    const spec = (obj.spec = o(obj.spec));
    delete spec.username;
    delete spec.uid;
    delete spec.groups;
    delete spec.extra;
    // the requestor is whoever creates the request, not what the body claims
    if (ctx.user) {
      spec.username = ctx.user.name;
      if (ctx.user.uid) spec.uid = ctx.user.uid;
      if (ctx.user.groups.length) spec.groups = [...ctx.user.groups];
      if (ctx.user.extra && Object.keys(ctx.user.extra).length) spec.extra = structuredClone(ctx.user.extra);
    }
  },
  prepareForUpdate: (obj, old, ctx) => {
    obj.spec = old.spec;
    if (ctx.subresource === '') {
      if (old.status === undefined) delete obj.status;
      else obj.status = old.status;
      return;
    }
    if (ctx.subresource === 'approval') {
      // only the conditions come from the request
      const status: Record<string, unknown> = { ...o(old.status), conditions: o(obj.status).conditions };
      if (status.conditions === undefined) delete status.conditions;
      obj.status = status;
    }
    stampConditions(obj, old, ctx.now);
  },
  validateObject: (obj, ctx) => (ctx.subresource === '' ? validateSpec(obj) : []),
  validateStatusChange: validateApprovalChange,
  tableColumns: [
    ageColumn(),
    col('SignerName', 'string', 'The signer the request is addressed to.', (obj) => str(o(obj.spec).signerName)),
    col('Requestor', 'string', 'The user who created the request.', (obj) => str(o(obj.spec).username)),
    col('RequestedDuration', 'string', 'The certificate validity the request asks for.', (obj) => {
      const s = o(obj.spec).expirationSeconds;
      return typeof s === 'number' ? humanDuration(s * 1000) : '<none>';
    }),
    col('Condition', 'string', 'The state of the request: Pending, Approved, Denied, Failed, Issued.', condition),
  ],
}) satisfies ResourceDefinition;
