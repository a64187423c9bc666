import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const endpoints = builtin('', 'v1', 'endpoints') satisfies ResourceDefinition;
