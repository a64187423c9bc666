import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const persistentvolumeclaims = builtin('', 'v1', 'persistentvolumeclaims') satisfies ResourceDefinition;
