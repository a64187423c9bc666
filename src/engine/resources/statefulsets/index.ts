import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const statefulsets = builtin('apps', 'v1', 'statefulsets') satisfies ResourceDefinition;
