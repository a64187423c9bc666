// The create-only review kinds of authentication.k8s.io/v1 and authorization.k8s.io/v1: served (discovery,
// OpenAPI, routing) but never stored. auth/endpoints.ts answers their creates.

import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const reviewResources: ResourceDefinition[] = [
  builtin('authentication.k8s.io', 'v1', 'selfsubjectreviews'),
  builtin('authentication.k8s.io', 'v1', 'tokenreviews'),
  builtin('authorization.k8s.io', 'v1', 'localsubjectaccessreviews'),
  builtin('authorization.k8s.io', 'v1', 'selfsubjectaccessreviews'),
  builtin('authorization.k8s.io', 'v1', 'selfsubjectrulesreviews'),
  builtin('authorization.k8s.io', 'v1', 'subjectaccessreviews'),
];
