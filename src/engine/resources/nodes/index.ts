import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const nodes = builtin('', 'v1', 'nodes') satisfies ResourceDefinition;
