import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const controllerrevisions = builtin('apps', 'v1', 'controllerrevisions') satisfies ResourceDefinition;
