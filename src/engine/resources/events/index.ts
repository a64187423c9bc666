import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const events = builtin('', 'v1', 'events') satisfies ResourceDefinition;
