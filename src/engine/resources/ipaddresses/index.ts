// IPAddresses (networking.k8s.io/v1, GA in v1.33): the name is the address itself (ValidateIPAddressName),
// the parent reference is required and fixed (ValidateIPAddress(+Update)); printer NAME, PARENTREF.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { FIELD_IMMUTABLE, isDNS1123Subdomain, isIP, nameIsPathSegment } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { jsonEqual } from '../common/json.js';
import { o, str } from '../common/printers.js';
import { VALID_IP } from '../common/cidr.js';

function validateIPAddress(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  if (spec.parentRef === undefined || spec.parentRef === null) return [fieldErr.required('spec.parentRef', '')];
  const ref = o(spec.parentRef);
  const errs: FieldError[] = [];
  const p = 'spec.parentRef';
  const group = str(ref.group);
  // the core group of Services is the empty string, so the group cannot be required
  if (group) for (const m of isDNS1123Subdomain(group)) errs.push(fieldErr.invalid(`${p}.group`, group, m));
  for (const f of ['resource', 'name']) {
    const v = str(ref[f]);
    if (!v) errs.push(fieldErr.required(`${p}.${f}`, ''));
    else for (const m of nameIsPathSegment(v, false)) errs.push(fieldErr.invalid(`${p}.${f}`, v, m));
  }
  const ns = str(ref.namespace);
  if (ns) for (const m of nameIsPathSegment(ns, false)) errs.push(fieldErr.invalid(`${p}.namespace`, ns, m));
  return errs;
}

/** The name must be an IP address in canonical form (lower case, no leading zeros, shortest IPv6 form). */
function ipAddressName(name: string): string[] {
  if (!isIP(name)) return [VALID_IP];
  if (name.includes(':') && !name.includes('.') && canonicalIPv6(name) !== name) return [`must be in canonical form ("${canonicalIPv6(name)}")`];
  return [];
}

function canonicalIPv6(s: string): string {
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  const parts = groups.map((g) => parseInt(g, 16).toString(16));
  // the longest run (of two or more) of zero groups becomes "::"
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (parts[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && parts[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return parts.join(':');
  return `${parts.slice(0, best).join(':')}::${parts.slice(best + bestLen).join(':')}`;
}

export const ipaddresses = builtin('networking.k8s.io', 'v1', 'ipaddresses', {
  nameValidator: (name) => ipAddressName(name),
  validateObject: validateIPAddress,
  validateChange: (obj, old) => (jsonEqual(o(obj.spec).parentRef ?? null, o(old.spec).parentRef ?? null) ? [] : [fieldErr.invalid('spec.parentRef', o(obj.spec).parentRef ?? null, FIELD_IMMUTABLE)]),
  tableColumns: [
    {
      name: 'ParentRef',
      type: 'string',
      description: 'The object the address is allocated to.',
      cell: (obj) => {
        const r = o(o(obj.spec).parentRef);
        const gr = str(r.group) ? `${str(r.resource)}.${str(r.group)}` : str(r.resource);
        return `${gr}/${str(r.namespace) ? `${str(r.namespace)}/` : ''}${str(r.name)}`;
      },
    },
  ],
}) satisfies ResourceDefinition;
