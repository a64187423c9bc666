import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const daemonsets = builtin('apps', 'v1', 'daemonsets') satisfies ResourceDefinition;
