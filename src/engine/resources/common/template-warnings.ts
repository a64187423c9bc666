// warningsOnCreate / warningsOnUpdate for kinds that embed a pod template (GetWarningsForPodTemplate).

import type { KubeObject } from '../../object.js';
import type { ResourceStrategy } from '../../registry/types.js';
import { newWarnings, podWarnings } from './pod.js';
import { o } from './printers.js';

export function templateWarnings(get: (obj: KubeObject) => unknown, prefix: string): Pick<ResourceStrategy, 'warningsOnCreate' | 'warningsOnUpdate'> {
  const of = (obj: KubeObject) => {
    const t = o(get(obj));
    return podWarnings(t.spec, t.metadata, prefix);
  };
  return {
    warningsOnCreate: (obj) => of(obj),
    warningsOnUpdate: (obj, old) => newWarnings(of(obj), of(old)),
  };
}
