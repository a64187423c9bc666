import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const priorityclasses = builtin('scheduling.k8s.io', 'v1', 'priorityclasses') satisfies ResourceDefinition;
