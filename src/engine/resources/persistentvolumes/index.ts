import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const persistentvolumes = builtin('', 'v1', 'persistentvolumes') satisfies ResourceDefinition;
