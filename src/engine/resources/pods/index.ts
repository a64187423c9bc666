import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const pods = builtin('', 'v1', 'pods') satisfies ResourceDefinition;
