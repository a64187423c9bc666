import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const limitranges = builtin('', 'v1', 'limitranges') satisfies ResourceDefinition;
