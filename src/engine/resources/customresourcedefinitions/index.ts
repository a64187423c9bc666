import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const customresourcedefinitions = builtin('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', { kubeFinalizerNames: false }) satisfies ResourceDefinition;
