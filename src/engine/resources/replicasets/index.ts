import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const replicasets = builtin('apps', 'v1', 'replicasets') satisfies ResourceDefinition;
