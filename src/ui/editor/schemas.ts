// JSON Schemas for the editor (monaco-yaml), built from the engine's own OpenAPI v3 documents
// (/openapi/v3 then one document per group version): one self-contained schema per kind, keyed by
// `apiVersion/kind`, and one combined schema that picks the kind's schema from a document's apiVersion
// and kind (so every document of a multi-document YAML is checked against its own kind). Pure.
// Hover text is the `description` the engine writes into those documents (the project's own descriptions
// of built-in kinds, schema/descriptions.ts in the engine, or a CRD's own); a short type summary stands in
// where a schema has none.

export type JsonSchema = Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';
const DEFINITION_REF = '#/definitions/';

interface Gvk {
  group?: unknown;
  version?: unknown;
  kind?: unknown;
}

function typeSummary(s: JsonSchema): string | undefined {
  if (typeof s.$ref === 'string') return s.$ref.slice(s.$ref.lastIndexOf('/') + 1).split('.').pop();
  if (Array.isArray(s.allOf) && s.allOf.length === 1) return typeSummary(s.allOf[0] as JsonSchema);
  const type = s.type;
  if (type === 'array') {
    const items = s.items as JsonSchema | undefined;
    const inner = items ? typeSummary(items) : undefined;
    return inner ? `[]${inner}` : 'array';
  }
  if (type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') {
    const inner = typeSummary(s.additionalProperties as JsonSchema);
    return inner ? `map[string]${inner}` : 'object';
  }
  if (typeof type === 'string') return typeof s.format === 'string' ? `${type} (${s.format})` : type;
  if (s.format === 'int-or-string') return 'int-or-string';
  if (Array.isArray(s.oneOf)) return s.oneOf.map((o) => typeSummary(o as JsonSchema) ?? '?').join(' | ');
  return undefined;
}

/**
 * One OpenAPI v3 schema as JSON Schema (draft-07): refs to #/definitions, `nullable` and x-kubernetes-*
 * dropped, objects with properties closed (additionalProperties: false) unless they keep unknown fields.
 */
export function convertSchema(s: unknown, refs?: Set<string>, closeObjects = true): unknown {
  if (Array.isArray(s)) return s.map((x) => convertSchema(x, refs, closeObjects));
  if (!s || typeof s !== 'object') return s;
  const src = s as JsonSchema;
  const out: JsonSchema = {};
  // Fields outside the schema are dropped by the server with a Warning (fieldValidation=Warn): mark them
  // (yaml-language-server reports them as warnings), except where unknown fields are kept.
  if (
    closeObjects &&
    src.properties &&
    typeof src.properties === 'object' &&
    src.additionalProperties === undefined &&
    src['x-kubernetes-preserve-unknown-fields'] !== true &&
    src['x-kubernetes-embedded-resource'] !== true
  ) {
    out.additionalProperties = false;
  }
  for (const [k, v] of Object.entries(src)) {
    if (k === '$ref' && typeof v === 'string') {
      const name = v.startsWith(COMPONENT_REF) ? v.slice(COMPONENT_REF.length) : v;
      refs?.add(name);
      out.$ref = DEFINITION_REF + name;
    } else if (k === 'properties' && v && typeof v === 'object') {
      const props: JsonSchema = {};
      for (const [name, prop] of Object.entries(v as JsonSchema)) {
        const converted = convertSchema(prop, refs, closeObjects) as JsonSchema;
        if (!converted || typeof converted !== 'object' || Array.isArray(converted)) {
          props[name] = converted;
          continue;
        }
        const summary = typeSummary(prop as JsonSchema);
        const extra: JsonSchema = {};
        if (converted.description === undefined && summary) extra.description = summary;
        // The hover's heading is a schema's title, else the title of the schema it was reached from, which
        // for a definition shared by many kinds is whichever kind was checked last (yaml-language-server
        // keeps it on the shared schema): every field names its own type instead (`metadata: ObjectMeta`).
        if (converted.title === undefined) extra.title = summary ? `${name}: ${summary}` : name;
        // A $ref with siblings is ignored by draft-07 validators: wrap it.
        props[name] = converted.$ref ? { allOf: [converted], ...extra } : { ...converted, ...extra };
      }
      out.properties = props;
    } else if (k === 'nullable' || k.startsWith('x-kubernetes-')) {
      // not JSON Schema; int-or-string is expressed by the engine as oneOf
    } else if (k === 'default') {
      out.default = v;
    } else {
      out[k] = convertSchema(v, refs, closeObjects);
    }
  }
  return out;
}

function apiVersionOf(gvk: Gvk): string | undefined {
  if (typeof gvk.version !== 'string' || typeof gvk.kind !== 'string') return undefined;
  return typeof gvk.group === 'string' && gvk.group !== '' ? `${gvk.group}/${gvk.version}` : gvk.version;
}

/**
 * Per-kind JSON Schemas from OpenAPI v3 group-version documents. Only kinds with a create or apply path
 * matter to the editor, but every schema carrying x-kubernetes-group-version-kind is included (lists and
 * options too, harmless). Each schema holds the definitions it reaches.
 */
export function kindSchemas(docs: unknown[]): Map<string, JsonSchema> {
  const components: Record<string, JsonSchema> = {};
  for (const doc of docs) {
    const schemas = (doc as { components?: { schemas?: Record<string, JsonSchema> } } | null)?.components?.schemas;
    if (schemas) Object.assign(components, schemas);
  }
  const converted = new Map<string, { schema: JsonSchema; refs: Set<string> }>();
  const convert = (name: string) => {
    let c = converted.get(name);
    if (!c) {
      const refs = new Set<string>();
      c = { schema: convertSchema(components[name] ?? {}, refs) as JsonSchema, refs };
      converted.set(name, c);
    }
    return c;
  };
  const out = new Map<string, JsonSchema>();
  for (const [name, schema] of Object.entries(components)) {
    const gvks = schema['x-kubernetes-group-version-kind'];
    if (!Array.isArray(gvks)) continue;
    for (const gvk of gvks as Gvk[]) {
      const apiVersion = apiVersionOf(gvk);
      if (!apiVersion || out.has(`${apiVersion}/${String(gvk.kind)}`)) continue;
      // the definitions this kind reaches
      const definitions: JsonSchema = {};
      const queue = [...convert(name).refs];
      while (queue.length) {
        const ref = queue.pop() as string;
        if (ref in definitions) continue;
        const c = convert(ref);
        definitions[ref] = c.schema;
        queue.push(...c.refs);
      }
      const root = convert(name).schema;
      const props = { ...((root.properties as JsonSchema | undefined) ?? {}) };
      props.apiVersion = { type: 'string', enum: [apiVersion], description: 'APIVersion of this kind' };
      props.kind = { type: 'string', enum: [gvk.kind], description: 'Kind' };
      out.set(`${apiVersion}/${String(gvk.kind)}`, {
        ...root,
        title: `${gvk.kind} (${apiVersion})`,
        properties: props,
        required: [...new Set(['apiVersion', 'kind', ...((root.required as string[] | undefined) ?? [])])],
        ...(Object.keys(definitions).length ? { definitions } : {}),
      });
    }
  }
  return out;
}

/**
 * One schema for any manifest, as the Kubernetes schemas of yaml-language-server are built: `oneOf` the
 * kinds, each fixing its apiVersion and kind (monaco-yaml runs with `isKubernetes`, which picks the
 * alternative matching a document's apiVersion/kind for completion, hover and validation).
 */
export function combinedSchema(kinds: Map<string, JsonSchema>, only?: (key: string) => boolean): JsonSchema {
  const definitions: JsonSchema = {};
  const branches: JsonSchema[] = [];
  for (const [key, schema] of kinds) {
    if (only && !only(key)) continue;
    const kind = key.slice(key.lastIndexOf('/') + 1);
    if (kind.endsWith('List') || kind.endsWith('Options') || kind === 'Status' || kind === 'WatchEvent') continue;
    const { definitions: defs, ...root } = schema as JsonSchema & { definitions?: JsonSchema };
    Object.assign(definitions, defs ?? {});
    const id = `kind:${key.replace(/\//g, ':')}`; // no '/' in a JSON pointer segment
    definitions[id] = root;
    branches.push({ $ref: DEFINITION_REF + id });
  }
  return { $schema: 'http://json-schema.org/draft-07/schema#', oneOf: branches, definitions };
}

/** The group-version document URLs listed by /openapi/v3 (server-relative, e.g. /openapi/v3/api/v1?hash=...). */
export function openApiDocumentUrls(index: unknown): string[] {
  const paths = (index as { paths?: Record<string, { serverRelativeURL?: unknown }> } | null)?.paths ?? {};
  const out: string[] = [];
  for (const [gv, entry] of Object.entries(paths)) {
    if (!/^(api\/v1|apis\/[^/]+\/[^/]+)$/.test(gv)) continue;
    const url = typeof entry?.serverRelativeURL === 'string' ? entry.serverRelativeURL : `/openapi/v3/${gv}`;
    out.push(url);
  }
  return out;
}
