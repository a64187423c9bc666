import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const ingresses = builtin('networking.k8s.io', 'v1', 'ingresses') satisfies ResourceDefinition;
