// Shape of the generated facts module (generated/builtins.ts, written by scripts/gen-builtins.ts).

import type { Verb } from '../registry/types.js';
import type { SchemaRegistry } from '../schema/types.js';

export interface BuiltinResourceFacts {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  shortNames?: string[];
  categories?: string[];
  namespaced: boolean;
  verbs: Verb[];
  subresources: string[];
  /** Definition name of the kind, e.g. "io.k8s.api.apps.v1.Deployment". */
  definition: string;
  listDefinition: string;
}

export interface BuiltinData {
  resources: BuiltinResourceFacts[];
  definitions: SchemaRegistry;
}
