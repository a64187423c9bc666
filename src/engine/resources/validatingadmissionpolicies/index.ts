import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const validatingadmissionpolicies = builtin('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies') satisfies ResourceDefinition;
