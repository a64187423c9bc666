// get and list of a kind whose objects are computed on each read, never stored (componentstatuses): the
// REST's Get and List, with label and field selectors and Table output; there is no resourceVersion.

import { notFound } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import { bodyResponse } from '../negotiation/encode.js';
import type { Scope } from '../scope.js';
import { parseIncludeObject, toTable } from '../table.js';
import { parseListQuery, selectorMatcher } from './list.js';
import type { EngineResponse } from '../wire.js';

export async function handleComputed(scope: Scope): Promise<EngineResponse> {
  const { def, core, info } = scope;
  const now = core.env.clock.now();
  const all = def.computed!({ now });
  const neg = scope.negotiated;
  let objects: KubeObject[];
  let body: KubeObject | Record<string, unknown>;
  if (info.name) {
    const obj = all.find((x) => x.metadata?.name === info.name);
    // the REST names the singular resource in its NotFound
    if (!obj) throw notFound({ group: def.group, resource: def.singular }, info.name);
    objects = [obj];
    body = obj;
  } else {
    const lq = parseListQuery(scope);
    objects = all.filter(selectorMatcher(def, lq));
    body = { kind: def.listKind, apiVersion: def.version, metadata: {}, items: objects };
  }
  if (neg.as === 'Table') {
    return bodyResponse(toTable(def, objects, {}, now, parseIncludeObject(scope.query), neg.asVersion!, neg.asGroup!), neg, scope.pretty);
  }
  return bodyResponse(body, neg, scope.pretty);
}
