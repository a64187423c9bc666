import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const serviceaccounts = builtin('', 'v1', 'serviceaccounts') satisfies ResourceDefinition;
