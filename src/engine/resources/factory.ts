// Builds a ResourceDefinition for a built-in kind from the generated facts (generated/builtins.ts) plus the
// kind's behaviour (strategy, table columns). Each resources/<plural>/index.ts calls `builtin(...)`.

import type { ResourceDefinition, ResourceStrategy, TableColumn } from '../registry/types.js';
import type { SchemaRegistry } from '../schema/types.js';
import type { BuiltinResourceFacts } from './builtin-data.js';
import { builtins } from './generated/builtins.js';

/** All trimmed schema definitions of the built-in kinds, by bare name. */
export const builtinDefinitions: SchemaRegistry = builtins.definitions;

export interface BuiltinBehaviour {
  strategy?: ResourceStrategy;
  tableColumns?: TableColumn[];
  preferred?: boolean;
  deprecated?: string;
}

export function builtinFacts(group: string, version: string, plural: string): BuiltinResourceFacts {
  const f = builtins.resources.find((r) => r.group === group && r.version === version && r.plural === plural);
  if (!f) throw new Error(`no generated facts for ${plural}.${version}.${group}`);
  return f;
}

export function builtin(group: string, version: string, plural: string, behaviour: BuiltinBehaviour = {}): ResourceDefinition {
  const f = builtinFacts(group, version, plural);
  const subresources: ResourceDefinition['subresources'] = {};
  if (f.subresources.includes('status')) subresources.status = true;
  if (f.subresources.includes('scale')) {
    // Built-in scale subresources read spec.replicas / status.replicas; the selector of the Scale's status
    // is the kind's spec.selector rendered as a label-selector string (a LabelSelector object for apps
    // kinds, a plain map for ReplicationController).
    subresources.scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' };
  }
  const def: ResourceDefinition = {
    group: f.group,
    version: f.version,
    kind: f.kind,
    listKind: f.listKind,
    plural: f.plural,
    singular: f.singular,
    namespaced: f.namespaced,
    verbs: [...f.verbs],
    subresources,
    schema: { $ref: f.definition },
    definitions: builtinDefinitions,
    strategy: behaviour.strategy ?? {},
    preferred: behaviour.preferred ?? true,
  };
  if (f.shortNames) def.shortNames = [...f.shortNames];
  if (f.categories) def.categories = [...f.categories];
  if (behaviour.tableColumns) def.tableColumns = behaviour.tableColumns;
  if (behaviour.deprecated) def.deprecated = behaviour.deprecated;
  return def;
}
