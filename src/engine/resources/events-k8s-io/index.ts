import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const eventsV1 = builtin('events.k8s.io', 'v1', 'events') satisfies ResourceDefinition;
