// warningsOnCreate / warningsOnUpdate for kinds that embed a pod template (GetWarningsForPodTemplate).

import type { KubeObject } from '../../object.js';
import type { ResourceStrategy } from '../../registry/types.js';
import { isDNS1123Label } from '../../util/validation.js';
import { newWarnings, podWarnings } from './pod.js';
import { o } from './printers.js';

/** The create-time warning of workload kinds whose names end up in pod names and hostnames (v1.27+). */
export function nameWarning(obj: KubeObject, usedIn: string): string[] {
  const msgs = isDNS1123Label(obj.metadata?.name ?? '');
  return msgs.length ? [`metadata.name: this is used in ${usedIn}, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`] : [];
}

export function templateWarnings(
  get: (obj: KubeObject) => unknown,
  prefix: string,
  opts: { nameUsedIn?: string } = {},
): Pick<ResourceStrategy, 'warningsOnCreate' | 'warningsOnUpdate'> {
  const of = (obj: KubeObject) => {
    const t = o(get(obj));
    return podWarnings(t.spec, t.metadata, prefix);
  };
  return {
    warningsOnCreate: (obj) => [...(opts.nameUsedIn ? nameWarning(obj, opts.nameUsedIn) : []), ...of(obj)],
    warningsOnUpdate: (obj, old) => newWarnings(of(obj), of(old)),
  };
}
