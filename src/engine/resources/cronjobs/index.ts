import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const cronjobs = builtin('batch', 'v1', 'cronjobs') satisfies ResourceDefinition;
