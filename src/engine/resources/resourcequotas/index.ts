import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const resourcequotas = builtin('', 'v1', 'resourcequotas') satisfies ResourceDefinition;
