// LimitRanges (core v1): SetDefaults_LimitRangeItem for Container limits, type checks of ValidateLimitRange.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { a, o } from '../common/printers.js';

function defaultLimitRange(obj: KubeObject): void {
  for (const item of a(o(obj.spec).limits)) {
    if (item.type !== 'Container') continue;
    const def = (item.default = o(item.default));
    const req = (item.defaultRequest = o(item.defaultRequest));
    for (const [k, v] of Object.entries(o(item.max))) if (!(k in def)) def[k] = v;
    for (const [k, v] of Object.entries(def)) if (!(k in req)) req[k] = v;
    for (const [k, v] of Object.entries(o(item.min))) if (!(k in req)) req[k] = v;
    // empty resource lists are omitted when serialized
    if (Object.keys(def).length === 0) delete item.default;
    if (Object.keys(req).length === 0) delete item.defaultRequest;
  }
}

function validateLimitRange(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  a(o(obj.spec).limits).forEach((item, i) => {
    if (!item.type) errs.push(fieldErr.required(`spec.limits[${i}].type`, ''));
  });
  return errs;
}

export const limitranges = builtin('', 'v1', 'limitranges', {
  allowCreateOnUpdate: true,
  default: defaultLimitRange,
  validateObject: (obj) => validateLimitRange(obj),
}) satisfies ResourceDefinition;
