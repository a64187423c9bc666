import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const podtemplates = builtin('', 'v1', 'podtemplates') satisfies ResourceDefinition;
