import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const horizontalpodautoscalers = builtin('autoscaling', 'v2', 'horizontalpodautoscalers') satisfies ResourceDefinition;

export const horizontalpodautoscalersV1 = builtin('autoscaling', 'v1', 'horizontalpodautoscalers', { preferred: false }) satisfies ResourceDefinition;
