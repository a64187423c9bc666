import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const jobs = builtin('batch', 'v1', 'jobs') satisfies ResourceDefinition;
