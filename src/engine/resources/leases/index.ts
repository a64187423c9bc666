import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const leases = builtin('coordination.k8s.io', 'v1', 'leases') satisfies ResourceDefinition;
