// ControllerRevisions (apps/v1): ValidateControllerRevision(+Update), the printer.

import { fieldErr } from '../../errors.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { validateImmutable, validateNonnegative } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { ageColumn, col, int } from '../common/printers.js';

export const controllerrevisions = builtin('apps', 'v1', 'controllerrevisions', {
  validateObject: (obj) => [
    ...(obj.data === undefined || obj.data === null ? [fieldErr.required('data', 'data is mandatory')] : []),
    ...validateNonnegative(obj.revision, 'revision'),
  ],
  validateChange: (obj, old) => validateImmutable(obj.data, old.data, 'data'),
  tableColumns: [
    col('Controller', 'string', 'Controller of the object', (obj) => {
      const ref = (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
      if (!ref) return '<none>';
      const group = ref.apiVersion.includes('/') ? ref.apiVersion.slice(0, ref.apiVersion.indexOf('/')) : '';
      const gk = group ? `${ref.kind}.${group}` : ref.kind;
      return `${gk.toLowerCase()}/${ref.name}`;
    }),
    col('Revision', 'string', 'Revision indicates the revision of the state represented by Data.', (obj) => int(obj.revision)),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
