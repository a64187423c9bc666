// ComponentStatuses (v1, deprecated since v1.19): read-only and never stored. Each read reports the
// components the API server checks (the controller manager, the scheduler and etcd) as a healthy cluster
// does; the project has no such processes to probe, so they are always Healthy. The printer is
// NAME, STATUS, MESSAGE, ERROR.

import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { a, col, str } from '../common/printers.js';

const COMPONENTS = ['controller-manager', 'etcd-0', 'scheduler'];

function componentStatus(name: string): KubeObject {
  return {
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name, creationTimestamp: null } as unknown as KubeObject['metadata'],
    conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
  };
}

const healthy = (obj: KubeObject) => a(obj.conditions).find((c) => c.type === 'Healthy');

export const componentstatuses: ResourceDefinition = {
  ...builtin('', 'v1', 'componentstatuses', {
    deprecated: 'v1 ComponentStatus is deprecated in v1.19+',
    tableColumns: [
      col('Status', 'string', 'Status of the component conditions', (obj) => {
        const c = healthy(obj);
        return c?.status === 'True' ? 'Healthy' : c?.status === 'False' ? 'Unhealthy' : 'Unknown';
      }),
      col('Message', 'string', 'Message of the component conditions', (obj) => str(healthy(obj)?.message)),
      col('Error', 'string', 'Error of the component conditions', (obj) => str(healthy(obj)?.error)),
    ],
  }),
  computed: () => COMPONENTS.map(componentStatus),
};
