import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const poddisruptionbudgets = builtin('policy', 'v1', 'poddisruptionbudgets') satisfies ResourceDefinition;
