import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const endpointslices = builtin('discovery.k8s.io', 'v1', 'endpointslices') satisfies ResourceDefinition;
