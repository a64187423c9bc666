// CustomResourceDefinitions (apiextensions.k8s.io/v1): SetDefaults_CustomResourceDefinitionSpec, the CRD
// strategy's storedVersions bookkeeping, the main checks of ValidateCustomResourceDefinition(+Update).
// Conditions (Established, NamesAccepted) belong to the apiextensions controllers, not to this strategy.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, validateImmutable } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { a, o, str } from '../common/printers.js';

type Obj = Record<string, unknown>;

function defaultCRD(obj: KubeObject): void {
  const spec = (obj.spec = o(obj.spec));
  const names = (spec.names = o(spec.names));
  if (!names.singular && names.kind) names.singular = str(names.kind).toLowerCase();
  if (!names.listKind && names.kind) names.listKind = `${str(names.kind)}List`;
  if (!spec.conversion) spec.conversion = { strategy: 'None' };
  const conv = o(spec.conversion);
  const svc = o(o(o(conv.webhook).clientConfig).service);
  if (conv.strategy === 'Webhook' && Object.keys(svc).length && svc.port === undefined) svc.port = 443;
}

/**
 * The spec's `x-svc-*` schema extensions are the `x-kubernetes-*` ones (docs/design.md section 3): they are
 * stored under the real names, so that validation, defaulting, pruning and merging read one spelling. A
 * real-spelled key given too wins.
 */
export function canonicalSchemaExtensions(body: KubeObject): void {
  const walk = (v: unknown, depth: number): void => {
    if (depth > 200 || !v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    const rec = v as Record<string, unknown>;
    for (const k of Object.keys(rec)) {
      if (k.startsWith('x-svc-')) {
        const real = `x-kubernetes-${k.slice('x-svc-'.length)}`;
        if (!(real in rec)) rec[real] = rec[k];
        delete rec[k];
      }
    }
    for (const x of Object.values(rec)) walk(x, depth + 1);
  };
  for (const v of a(o(body.spec).versions)) walk(o(v.schema).openAPIV3Schema, 0);
}

function storageVersion(obj: KubeObject): string | undefined {
  return str(a(o(obj.spec).versions).find((v) => v.storage === true)?.name) || undefined;
}

function addStoredVersion(obj: KubeObject): void {
  const st = (obj.status = o(obj.status));
  const sv = storageVersion(obj);
  const stored = Array.isArray(st.storedVersions) ? (st.storedVersions as string[]) : [];
  if (sv && !stored.includes(sv)) stored.push(sv);
  st.storedVersions = stored;
  if (!st.acceptedNames) st.acceptedNames = { kind: '', plural: '' };
}

function validateCRD(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = o(obj.spec);
  const names = o(spec.names);
  const group = str(spec.group);
  const plural = str(names.plural);
  if (obj.metadata?.name !== `${plural}.${group}`) {
    errs.push(fieldErr.invalid('metadata.name', obj.metadata?.name ?? '', 'must be spec.names.plural+"."+spec.group'));
  }
  if (!group) errs.push(fieldErr.required('spec.group', ''));
  else {
    for (const m of isDNS1123Subdomain(group)) errs.push(fieldErr.invalid('spec.group', group, m));
    if (group.split('.').length < 2) errs.push(fieldErr.invalid('spec.group', group, 'should be a domain with at least one dot'));
  }
  if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') errs.push(fieldErr.notSupported('spec.scope', spec.scope ?? '', ['Cluster', 'Namespaced']));
  if (!plural) errs.push(fieldErr.required('spec.names.plural', ''));
  else for (const m of isDNS1123Label(plural)) errs.push(fieldErr.invalid('spec.names.plural', plural, m));
  const singular = str(names.singular);
  if (singular) for (const m of isDNS1123Label(singular)) errs.push(fieldErr.invalid('spec.names.singular', singular, m));
  const kind = str(names.kind);
  if (!kind) errs.push(fieldErr.required('spec.names.kind', ''));
  else {
    const e = isDNS1035Label(kind.toLowerCase());
    if (e.length) errs.push(fieldErr.invalid('spec.names.kind', kind, e.join(',')));
  }
  const listKind = str(names.listKind);
  if (!listKind) errs.push(fieldErr.required('spec.names.listKind', ''));
  else if (listKind === kind) errs.push(fieldErr.invalid('spec.names.listKind', listKind, 'kind and listKind may not be the same'));
  (Array.isArray(names.shortNames) ? (names.shortNames as unknown[]) : []).forEach((s, i) => {
    for (const m of isDNS1123Label(String(s))) errs.push(fieldErr.invalid(`spec.names.shortNames[${i}]`, s, m));
  });
  const versions = a(spec.versions);
  if (versions.length === 0) errs.push(fieldErr.required('spec.versions', 'must have exactly one version marked as storage version'));
  else if (versions.filter((v) => v.storage === true).length !== 1) {
    errs.push(fieldErr.invalid('spec.versions', spec.versions, 'must have exactly one version marked as storage version'));
  }
  const seen = new Set<string>();
  versions.forEach((v: Obj, i) => {
    const p = `spec.versions[${i}]`;
    const n = str(v.name);
    if (!n) errs.push(fieldErr.required(`${p}.name`, ''));
    else {
      for (const m of isDNS1035Label(n)) errs.push(fieldErr.invalid(`${p}.name`, n, m));
      if (seen.has(n)) errs.push(fieldErr.invalid('spec.versions', spec.versions, 'must contain unique version names'));
      seen.add(n);
    }
    if (!o(v.schema).openAPIV3Schema) errs.push(fieldErr.required(`${p}.schema.openAPIV3Schema`, 'schemas are required'));
  });
  if (versions.length && !versions.some((v) => v.served === true)) {
    errs.push(fieldErr.invalid('spec.versions', spec.versions, 'must have at least one version marked as served'));
  }
  const conv = o(spec.conversion);
  if (conv.strategy !== 'None' && conv.strategy !== 'Webhook') errs.push(fieldErr.notSupported('spec.conversion.strategy', conv.strategy ?? '', ['None', 'Webhook']));
  return errs;
}

function validateCRDChange(obj: KubeObject, old: KubeObject): FieldError[] {
  const n = o(obj.spec);
  const p = o(old.spec);
  const errs: FieldError[] = [];
  errs.push(...validateImmutable(n.scope, p.scope, 'spec.scope'));
  errs.push(...validateImmutable(n.group, p.group, 'spec.group'));
  errs.push(...validateImmutable(o(n.names).plural, o(p.names).plural, 'spec.names.plural'));
  const versions = new Set(a(n.versions).map((v) => str(v.name)));
  const stored = o(obj.status).storedVersions;
  (Array.isArray(stored) ? stored : []).forEach((v, i) => {
    if (!versions.has(String(v))) errs.push(fieldErr.invalid(`status.storedVersions[${i}]`, v, 'must appear in spec.versions'));
  });
  return errs;
}

export const customresourcedefinitions: ResourceDefinition = {
  ...builtin('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', {
  // the real strategy refuses an update without a resourceVersion (AllowUnconditionalUpdate is false)
  allowUnconditionalUpdate: false,
  kubeFinalizerNames: false,
  default: defaultCRD,
  prepareForCreate: (obj) => {
    obj.status = {};
    addStoredVersion(obj);
  },
  prepareForUpdate: (obj, _old, ctx) => {
    if (ctx.subresource === '') addStoredVersion(obj);
  },
  validateObject: (obj) => validateCRD(obj),
  validateChange: validateCRDChange,
  }),
  canonicalizeBody: canonicalSchemaExtensions,
};
