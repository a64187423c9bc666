import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const configmaps = builtin('', 'v1', 'configmaps') satisfies ResourceDefinition;
