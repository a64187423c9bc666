// Secrets (core v1): type default Opaque, stringData merged into data (base64) as the real conversion does,
// ValidateSecret/Update (keys, size, per-type required keys, immutable type/data), field selector `type`,
// the printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { validateImmutable } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { base64DecodedLength, base64Encode, utf8Bytes } from '../common/base64.js';
import { ageColumn, col, o, str } from '../common/printers.js';
import { validateDataBags, validateImmutableData } from '../configmaps/index.js';

function defaultSecret(obj: KubeObject): void {
  if (!obj.type) obj.type = 'Opaque';
  const sd = obj.stringData;
  if (sd && typeof sd === 'object') {
    const data = o(obj.data);
    for (const [k, v] of Object.entries(sd as Record<string, unknown>)) data[k] = base64Encode(utf8Bytes(String(v ?? '')));
    obj.data = data;
    delete obj.stringData;
  }
}

const REQUIRED_KEYS: Record<string, string[]> = {
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
};

function validateSecret(obj: KubeObject): FieldError[] {
  const errs = validateDataBags(obj, null, (_f, v) => Math.max(0, base64DecodedLength(String(v ?? ''))));
  const data = o(obj.data);
  const type = str(obj.type);
  if (type === 'kubernetes.io/service-account-token') {
    if (!obj.metadata?.annotations?.['kubernetes.io/service-account.name']) {
      errs.push(fieldErr.required('metadata.annotations[kubernetes.io/service-account.name]', ''));
    }
  } else if (type === 'kubernetes.io/basic-auth') {
    if (!('username' in data) && !('password' in data)) {
      errs.push(fieldErr.required('data[username]', ''), fieldErr.required('data[password]', ''));
    }
  }
  for (const k of REQUIRED_KEYS[type] ?? []) if (!(k in data)) errs.push(fieldErr.required(`data[${k}]`, ''));
  return errs;
}

export const secrets = builtin('', 'v1', 'secrets', {
  default: defaultSecret,
  validateObject: (obj) => validateSecret(obj),
  validateChange: (obj, old) => [...validateImmutable(obj.type, old.type, 'type'), ...validateImmutableData(obj, old, ['data'])],
  selectableFields: (obj) => ({ type: str(obj.type) }),
  tableColumns: [
    col('Type', 'string', 'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types', (obj) => str(obj.type)),
    col('Data', 'string', "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4", (obj) => Object.keys(o(obj.data)).length),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
