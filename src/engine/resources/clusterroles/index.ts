import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const clusterroles = builtin('rbac.authorization.k8s.io', 'v1', 'clusterroles') satisfies ResourceDefinition;
