import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const ingressclasses = builtin('networking.k8s.io', 'v1', 'ingressclasses') satisfies ResourceDefinition;
