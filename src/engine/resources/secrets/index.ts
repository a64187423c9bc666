import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const secrets = builtin('', 'v1', 'secrets') satisfies ResourceDefinition;
