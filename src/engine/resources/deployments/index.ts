import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const deployments = builtin('apps', 'v1', 'deployments') satisfies ResourceDefinition;
