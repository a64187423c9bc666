// OpenAPI documents of the served resources (pure: no HTTP here).
//   /openapi/v2                  -> buildOpenAPIV2(resources)
//   /openapi/v3                  -> buildOpenAPIV3Discovery(resources)
//   /openapi/v3/apis/apps/v1     -> buildOpenAPIV3GroupVersion(resources, 'apis/apps/v1')
// Everything is derived from ResourceDefinitions (their `schema` + `definitions`), so resources defined at
// runtime (custom resources) appear the same way as built-in ones. The shapes follow what the real v1.33
// server publishes closely enough for kubectl: schemas carry x-kubernetes-group-version-kind, PATCH
// operations carry the fieldValidation query parameter (kubectl's check for server-side validation), and
// refs are "#/definitions/<name>" (v2) or "#/components/schemas/<name>" (v3). Built-in definitions carry the
// project's own descriptions and the enum values of enum fields (schema/descriptions.ts); custom resources
// carry their CRD's schema as written, descriptions included.

import type { ResourceDefinition } from '../registry/types.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';
import { builtinDefinitions } from '../resources/index.js';
import { describeDefinition } from '../schema/descriptions.js';

const described = new Map<string, Schema>();
/** A built-in definition with descriptions and enums (computed once per definition). */
function describedBuiltin(name: string, s: Schema): Schema {
  if (s !== builtinDefinitions[name]) return describeDefinition(name, s);
  let d = described.get(name);
  if (!d) {
    d = describeDefinition(name, s);
    described.set(name, d);
  }
  return d;
}

type Json = Record<string, unknown>;

const KUBERNETES_VERSION = 'v1.33.0';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const STATUS = `${META}.Status`;
const DELETE_OPTIONS = `${META}.DeleteOptions`;
const PATCH = `${META}.Patch`;
const OBJECT_META = `${META}.ObjectMeta`;
const LIST_META = `${META}.ListMeta`;
const SCALE = 'io.k8s.api.autoscaling.v1.Scale';

// ---------------------------------------------------------------------------------------------------
// Names

/** Path prefix of a group-version without the leading slash: "api/v1" or "apis/apps/v1". */
export function groupVersionPath(def: { group: string; version: string }): string {
  return def.group ? `apis/${def.group}/${def.version}` : `api/${def.version}`;
}

function upperFirst(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** operationId group-version part: "CoreV1", "AppsV1", "NetworkingV1", "RbacAuthorizationV1", "ExampleComV1". */
function opGroupVersion(def: ResourceDefinition): string {
  if (!def.group) return `Core${upperFirst(def.version)}`;
  const g = def.group.endsWith('.k8s.io') ? def.group.slice(0, -'.k8s.io'.length) : def.group;
  return g.split(/[.-]/).map(upperFirst).join('') + upperFirst(def.version);
}

function tag(def: ResourceDefinition): string {
  if (!def.group) return `core_${def.version}`;
  const g = def.group.endsWith('.k8s.io') ? def.group.slice(0, -'.k8s.io'.length) : def.group;
  const parts = g.split('.');
  return `${parts[0]}${parts.slice(1).map(upperFirst).join('')}_${def.version}`;
}

/** Schema name of a kind: its $ref for built-in kinds, reverse-DNS group + version + kind otherwise. */
export function kindSchemaName(def: ResourceDefinition): string {
  if (def.schema.$ref) return def.schema.$ref;
  const rev = def.group ? def.group.split('.').reverse().join('.') : 'core';
  return `${rev}.${def.version}.${def.kind}`;
}

function listSchemaName(def: ResourceDefinition): string {
  const k = kindSchemaName(def);
  return k.slice(0, k.length - def.kind.length) + def.listKind;
}

// ---------------------------------------------------------------------------------------------------
// Schemas

function gvk(def: ResourceDefinition, kind = def.kind): Json {
  return { group: def.group, kind, version: def.version };
}

function rewriteRefs(s: unknown, prefix: string): unknown {
  if (Array.isArray(s)) return s.map((x) => rewriteRefs(x, prefix));
  if (!s || typeof s !== 'object') return s;
  const out: Json = {};
  for (const [k, v] of Object.entries(s as Json)) {
    if (k === '$ref' && typeof v === 'string') out.$ref = v.startsWith('#/') ? v : prefix + v;
    else if (k === 'properties' && v && typeof v === 'object') {
      const props: Json = {};
      for (const [pk, pv] of Object.entries(v as Json)) {
        let x = rewriteRefs(pv, prefix) as Json;
        // OpenAPI v3 ignores the siblings of a $ref: a described reference is written as allOf, as the real
        // documents do (v2 keeps $ref and description side by side)
        if (prefix === '#/components/schemas/' && x && typeof x.$ref === 'string' && x.description !== undefined) {
          const { $ref, ...rest } = x;
          x = { ...rest, allOf: [{ $ref }] };
        }
        props[pk] = x;
      }
      out.properties = props;
    } else if (k === 'enum' || k === 'default' || k === 'example' || k === 'x-kubernetes-group-version-kind' || k === 'x-kubernetes-list-map-keys' || k === 'required') {
      out[k] = v;
    } else out[k] = rewriteRefs(v, prefix);
  }
  return out;
}

function refsIn(s: unknown, acc: Set<string>): void {
  if (Array.isArray(s)) s.forEach((x) => refsIn(x, acc));
  else if (s && typeof s === 'object') {
    for (const [k, v] of Object.entries(s as Json)) {
      if (k === '$ref' && typeof v === 'string') acc.add(v.replace(/^#\/(definitions|components\/schemas)\//, ''));
      else if (k === 'properties' && v && typeof v === 'object') Object.values(v as Json).forEach((p) => refsIn(p, acc));
      else if (k !== 'enum' && k !== 'default' && k !== 'example') refsIn(v, acc);
    }
  }
}

/** A resource's kind and list schemas (custom resources get apiVersion/kind/metadata and a list envelope). */
function kindSchemas(def: ResourceDefinition): { name: string; schema: Schema; listName: string; list: Schema } {
  const name = kindSchemaName(def);
  const listName = listSchemaName(def);
  const registry = def.definitions ?? {};
  let schema: Schema;
  if (def.schema.$ref) {
    schema = registry[def.schema.$ref] ?? builtinDefinitions[def.schema.$ref] ?? { type: 'object' };
  } else {
    const props = { ...(def.schema.properties ?? {}) };
    props.apiVersion = props.apiVersion ?? { type: 'string' };
    props.kind = props.kind ?? { type: 'string' };
    props.metadata = { $ref: OBJECT_META };
    schema = { ...def.schema, type: 'object', properties: props };
  }
  const gvks = schema['x-kubernetes-group-version-kind'] ?? [];
  if (!gvks.some((g) => g.group === def.group && g.version === def.version && g.kind === def.kind)) {
    schema = { ...schema, 'x-kubernetes-group-version-kind': [...gvks, { group: def.group, version: def.version, kind: def.kind }] };
  }
  let list: Schema = registry[listName] ?? builtinDefinitions[listName];
  if (!list || !def.schema.$ref) {
    list = {
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: { type: 'string' },
        items: { type: 'array', items: { $ref: name } },
        kind: { type: 'string' },
        metadata: { $ref: LIST_META },
      },
      'x-kubernetes-group-version-kind': [{ group: def.group, version: def.version, kind: def.listKind }],
    };
  }
  return { name, schema, listName, list };
}

/** Every schema a set of resources needs, by name (transitively closed over $ref). */
function collectSchemas(resources: ResourceDefinition[]): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const registries: SchemaRegistry[] = [];
  for (const def of resources) {
    const k = kindSchemas(def);
    out[k.name] = k.schema;
    out[k.listName] = k.list;
    registries.push(def.definitions ?? {});
  }
  const lookup = (n: string): Schema | undefined => {
    for (const r of registries) if (r[n]) return r[n];
    return builtinDefinitions[n];
  };
  const queue = [STATUS, DELETE_OPTIONS, PATCH, `${META}.WatchEvent`];
  if (resources.some((r) => r.subresources.scale)) queue.push(SCALE);
  for (const s of Object.values(out)) {
    const acc = new Set<string>();
    refsIn(s, acc);
    queue.push(...acc);
  }
  while (queue.length) {
    const n = queue.pop()!;
    if (out[n]) continue;
    const s = lookup(n);
    if (!s) continue;
    out[n] = s;
    const acc = new Set<string>();
    refsIn(s, acc);
    for (const r of acc) if (!out[r]) queue.push(r);
  }
  const sorted: Record<string, Schema> = {};
  for (const k of Object.keys(out).sort()) sorted[k] = builtinDefinitions[k] ? describedBuiltin(k, out[k]) : out[k];
  return sorted;
}

// ---------------------------------------------------------------------------------------------------
// Operations (one intermediate form, rendered as v2 or v3)

type ParamType = 'string' | 'boolean' | 'integer';
const QUERY: Record<string, ParamType> = {
  allowWatchBookmarks: 'boolean', continue: 'string', dryRun: 'string', fieldManager: 'string', fieldSelector: 'string',
  fieldValidation: 'string', force: 'boolean', gracePeriodSeconds: 'integer', ignoreStoreReadErrorWithClusterBreakingPotential: 'boolean',
  labelSelector: 'string', limit: 'integer', orphanDependents: 'boolean', propagationPolicy: 'string', resourceVersion: 'string',
  resourceVersionMatch: 'string', sendInitialEvents: 'boolean', timeoutSeconds: 'integer', watch: 'boolean', pretty: 'string',
};
const LIST_PARAMS = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'];
const WRITE_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation'];
const PATCH_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation', 'force'];
const DELETE_PARAMS = ['dryRun', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'orphanDependents', 'propagationPolicy'];
const DELETE_COLLECTION_PARAMS = ['continue', 'dryRun', 'fieldSelector', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'labelSelector', 'limit', 'orphanDependents', 'propagationPolicy', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds'];

interface Op {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  action: string;
  operationId: string;
  gvk: Json;
  query: string[];
  body?: { schema: string; patch?: boolean; required: boolean };
  responses: Record<string, string | null>;
  custom: boolean;
}

interface PathItem {
  path: string;
  params: ('name' | 'namespace')[];
  ops: Op[];
}

function pathItems(def: ResourceDefinition): PathItem[] {
  const prefix = `/${groupVersionPath(def)}`;
  const ns = def.namespaced;
  const kind = kindSchemaName(def);
  const list = listSchemaName(def);
  const gv = opGroupVersion(def);
  const nsWord = ns ? 'Namespaced' : '';
  const custom = !def.schema.$ref;
  const has = (v: string) => def.verbs.includes(v as never);
  const coll = ns ? `${prefix}/namespaces/{namespace}/${def.plural}` : `${prefix}/${def.plural}`;
  const item = `${coll}/{name}`;
  const g = gvk(def);
  const items: PathItem[] = [];

  const collOps: Op[] = [];
  if (has('list')) collOps.push({ method: 'get', action: 'list', operationId: `list${gv}${nsWord}${def.kind}`, gvk: g, query: LIST_PARAMS, responses: { 200: list }, custom });
  if (has('create')) collOps.push({ method: 'post', action: 'post', operationId: `create${gv}${nsWord}${def.kind}`, gvk: g, query: WRITE_PARAMS, body: { schema: kind, required: true }, responses: { 200: kind, 201: kind, 202: kind }, custom });
  if (has('deletecollection')) collOps.push({ method: 'delete', action: 'deletecollection', operationId: `delete${gv}Collection${nsWord}${def.kind}`, gvk: g, query: DELETE_COLLECTION_PARAMS, body: { schema: DELETE_OPTIONS, required: false }, responses: { 200: STATUS }, custom });
  if (collOps.length) items.push({ path: coll, params: ns ? ['namespace'] : [], ops: collOps });

  const itemOps: Op[] = [];
  if (has('get')) itemOps.push({ method: 'get', action: 'get', operationId: `read${gv}${nsWord}${def.kind}`, gvk: g, query: [], responses: { 200: kind }, custom });
  if (has('update')) itemOps.push({ method: 'put', action: 'put', operationId: `replace${gv}${nsWord}${def.kind}`, gvk: g, query: WRITE_PARAMS, body: { schema: kind, required: true }, responses: { 200: kind, 201: kind }, custom });
  if (has('patch')) itemOps.push({ method: 'patch', action: 'patch', operationId: `patch${gv}${nsWord}${def.kind}`, gvk: g, query: PATCH_PARAMS, body: { schema: PATCH, patch: true, required: true }, responses: { 200: kind, 201: kind }, custom });
  if (has('delete')) itemOps.push({ method: 'delete', action: 'delete', operationId: `delete${gv}${nsWord}${def.kind}`, gvk: g, query: DELETE_PARAMS, body: { schema: DELETE_OPTIONS, required: false }, responses: { 200: STATUS, 202: STATUS }, custom });
  if (itemOps.length) items.push({ path: item, params: ns ? ['name', 'namespace'] : ['name'], ops: itemOps });

  if (ns && has('list')) {
    items.push({ path: `${prefix}/${def.plural}`, params: [], ops: [{ method: 'get', action: 'list', operationId: `list${gv}${def.kind}ForAllNamespaces`, gvk: g, query: LIST_PARAMS, responses: { 200: list }, custom }] });
  }
  const sub = (name: 'approval' | 'ephemeralcontainers' | 'resize' | 'status' | 'scale', schema: string, subGvk: Json) => {
    const w = upperFirst(name);
    items.push({
      path: `${item}/${name}`,
      params: ns ? ['name', 'namespace'] : ['name'],
      ops: [
        { method: 'get', action: 'get', operationId: `read${gv}${nsWord}${def.kind}${w}`, gvk: subGvk, query: [], responses: { 200: schema }, custom },
        { method: 'put', action: 'put', operationId: `replace${gv}${nsWord}${def.kind}${w}`, gvk: subGvk, query: WRITE_PARAMS, body: { schema, required: true }, responses: { 200: schema, 201: schema }, custom },
        { method: 'patch', action: 'patch', operationId: `patch${gv}${nsWord}${def.kind}${w}`, gvk: subGvk, query: PATCH_PARAMS, body: { schema: PATCH, patch: true, required: true }, responses: { 200: schema, 201: schema }, custom },
      ],
    });
  };
  if (def.subresources.approval) sub('approval', kind, g);
  if (def.subresources.ephemeralcontainers) sub('ephemeralcontainers', kind, g);
  if (def.subresources.resize) sub('resize', kind, g);
  if (def.subresources.status) sub('status', kind, g);
  if (def.subresources.scale) sub('scale', SCALE, { group: 'autoscaling', kind: 'Scale', version: 'v1' });
  return items;
}

function mediaTypes(custom: boolean): string[] {
  return custom ? ['application/json', 'application/yaml'] : ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/cbor'];
}

function patchTypes(custom: boolean): string[] {
  return custom
    ? ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml', 'application/apply-patch+cbor']
    : ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'application/apply-patch+cbor'];
}

const PATH_PARAM_DESC: Record<string, string> = { name: 'name', namespace: 'namespace' };

// ---------------------------------------------------------------------------------------------------
// Swagger 2.0

function v2Operation(op: Op, def: ResourceDefinition): Json {
  const params: Json[] = [];
  if (op.body) params.push({ in: 'body', name: 'body', ...(op.body.required ? { required: true } : {}), schema: { $ref: `#/definitions/${op.body.schema}` } });
  for (const q of op.query) params.push({ in: 'query', name: q, type: QUERY[q], uniqueItems: true });
  const responses: Json = {};
  for (const [code, schema] of Object.entries(op.responses)) {
    responses[code] = { description: code === '201' ? 'Created' : code === '202' ? 'Accepted' : 'OK', ...(schema ? { schema: { $ref: `#/definitions/${schema}` } } : {}) };
  }
  responses['401'] = { description: 'Unauthorized' };
  const produces = op.action !== 'list'
    ? mediaTypes(op.custom)
    : op.custom
      ? ['application/json', 'application/yaml', 'application/json;stream=watch']
      : [...mediaTypes(false), 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch', 'application/cbor-seq'];
  return {
    consumes: op.body?.patch ? patchTypes(op.custom) : ['*/*'],
    operationId: op.operationId,
    parameters: params,
    produces,
    responses,
    schemes: ['https'],
    tags: [tag(def)],
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': op.gvk,
  };
}

function pathLevelParamsV2(item: PathItem): Json[] {
  const out: Json[] = item.params.map((p) => ({ in: 'path', name: p, required: true, type: 'string', uniqueItems: true, description: PATH_PARAM_DESC[p] }));
  out.push({ in: 'query', name: 'pretty', type: 'string', uniqueItems: true });
  return out;
}

export function buildOpenAPIV2(resources: ResourceDefinition[]): Json {
  const paths: Record<string, Json> = {};
  for (const def of resources) {
    for (const item of pathItems(def)) {
      const p: Json = paths[item.path] ?? { parameters: pathLevelParamsV2(item) };
      for (const op of item.ops) p[op.method] = v2Operation(op, def);
      paths[item.path] = p;
    }
  }
  const sortedPaths: Record<string, Json> = {};
  for (const k of Object.keys(paths).sort()) sortedPaths[k] = paths[k];
  const definitions: Record<string, unknown> = {};
  for (const [n, s] of Object.entries(collectSchemas(resources))) definitions[n] = rewriteRefs(s, '#/definitions/');
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: KUBERNETES_VERSION },
    paths: sortedPaths,
    definitions,
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } },
    security: [{ BearerToken: [] }],
  };
}

// ---------------------------------------------------------------------------------------------------
// OpenAPI 3.0

function v3Operation(op: Op, def: ResourceDefinition): Json {
  const out: Json = { tags: [tag(def)], operationId: op.operationId };
  if (op.query.length) out.parameters = op.query.map((q) => ({ name: q, in: 'query', schema: { type: QUERY[q], uniqueItems: true } }));
  if (op.body) {
    const types = op.body.patch ? patchTypes(op.custom) : ['*/*'];
    const content: Json = {};
    for (const t of types) content[t] = { schema: { $ref: `#/components/schemas/${op.body.schema}` } };
    out.requestBody = { content, ...(op.body.required ? { required: true } : {}) };
  }
  const responses: Json = {};
  for (const [code, schema] of Object.entries(op.responses)) {
    const content: Json = {};
    if (schema) for (const t of mediaTypes(op.custom)) content[t] = { schema: { $ref: `#/components/schemas/${schema}` } };
    responses[code] = { description: code === '201' ? 'Created' : code === '202' ? 'Accepted' : 'OK', content };
  }
  responses['401'] = { description: 'Unauthorized' };
  out.responses = responses;
  out['x-kubernetes-action'] = op.action;
  out['x-kubernetes-group-version-kind'] = op.gvk;
  return out;
}

function pathLevelParamsV3(item: PathItem): Json[] {
  const out: Json[] = item.params.map((p) => ({ name: p, in: 'path', description: PATH_PARAM_DESC[p], required: true, schema: { type: 'string', uniqueItems: true } }));
  out.push({ name: 'pretty', in: 'query', schema: { type: 'string', uniqueItems: true } });
  return out;
}

/** v3 renders the one-of types of kube-openapi (OpenAPIV3OneOfTypes) instead of the v2 string forms. */
const V3_OVERRIDES: Record<string, unknown> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { oneOf: [{ type: 'string' }, { type: 'number' }] },
};

function resourcesOf(resources: ResourceDefinition[], gvPath: string): ResourceDefinition[] {
  return resources.filter((r) => groupVersionPath(r) === gvPath);
}

/** The OpenAPI v3 document of one group-version, or undefined when nothing is served there. */
export function buildOpenAPIV3GroupVersion(resources: ResourceDefinition[], gvPathIn: string): Json | undefined {
  const gvPath = gvPathIn.replace(/^\/+|\/+$/g, '').replace(/^openapi\/v3\//, '');
  const defs = resourcesOf(resources, gvPath);
  if (defs.length === 0) return undefined;
  const paths: Record<string, Json> = {};
  for (const def of defs) {
    for (const item of pathItems(def)) {
      const p: Json = paths[item.path] ?? { parameters: pathLevelParamsV3(item) };
      for (const op of item.ops) p[op.method] = v3Operation(op, def);
      paths[item.path] = p;
    }
  }
  const sortedPaths: Record<string, Json> = {};
  for (const k of Object.keys(paths).sort()) sortedPaths[k] = paths[k];
  const schemas: Record<string, unknown> = {};
  for (const [n, s] of Object.entries(collectSchemas(defs))) schemas[n] = V3_OVERRIDES[n] ?? rewriteRefs(s, '#/components/schemas/');
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: KUBERNETES_VERSION },
    paths: sortedPaths,
    components: {
      schemas,
      securitySchemes: { BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' } },
    },
  };
}

/** 64-bit FNV-1a over the UTF-16 code units, as 16 upper-case hex digits (twice, for a 32-digit hash). */
export function contentHash(s: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
    h2 = (h2 ^ (h2 >>> 15)) >>> 0;
  }
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');
  return hex(h1) + hex(h2) + hex(Math.imul(h1 ^ h2, 0x27d4eb2d) >>> 0) + hex((h1 + h2) >>> 0);
}

/** /openapi/v3: one entry per served group-version, with a content hash in the URL (clients cache on it). */
export function buildOpenAPIV3Discovery(resources: ResourceDefinition[]): { paths: Record<string, { serverRelativeURL: string }> } {
  const gvs = [...new Set(resources.map(groupVersionPath))].sort();
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const gv of gvs) {
    const doc = buildOpenAPIV3GroupVersion(resources, gv);
    paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${contentHash(JSON.stringify(doc))}` };
  }
  return { paths };
}

