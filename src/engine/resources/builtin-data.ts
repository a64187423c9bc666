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

/** One resource or subresource (`pods/log`) of the real v1.33 default API surface, as discovery lists it. */
export interface CatalogEntry {
  group: string;
  version: string;
  name: string;
  namespaced: boolean;
  /** Discovery verbs, sorted. */
  verbs: string[];
}

export interface BuiltinData {
  resources: BuiltinResourceFacts[];
  definitions: SchemaRegistry;
  /** Every resource and subresource a v1.33 server serves by default (GA group versions). */
  catalog: CatalogEntry[];
}
