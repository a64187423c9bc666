import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const namespaces = builtin('', 'v1', 'namespaces') satisfies ResourceDefinition;
