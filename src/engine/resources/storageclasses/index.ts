import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const storageclasses = builtin('storage.k8s.io', 'v1', 'storageclasses') satisfies ResourceDefinition;
