import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const replicationcontrollers = builtin('', 'v1', 'replicationcontrollers') satisfies ResourceDefinition;
