import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const services = builtin('', 'v1', 'services') satisfies ResourceDefinition;
