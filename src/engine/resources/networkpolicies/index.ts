import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const networkpolicies = builtin('networking.k8s.io', 'v1', 'networkpolicies') satisfies ResourceDefinition;
