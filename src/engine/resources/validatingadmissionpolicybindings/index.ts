import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const validatingadmissionpolicybindings = builtin('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicybindings') satisfies ResourceDefinition;
