// Generates src/engine/resources/generated/builtins.ts from a v1.33 swagger (OpenAPI v2) document: per served
// resource its kind, scope, verbs and subresources, plus the trimmed schema definitions reachable from the
// served kinds. The committed module is the project's vendored copy of these facts: nothing outside the
// repository is read at build or test time. Hand-written discovery facts (singular names, short names,
// categories) and the OpenAPI `+default` markers of k8s.io/api v0.33 live in the tables below, because a
// swagger document without prose has neither.
//
// Trimming drops documentation (the `description` KEYWORD of a schema node) and keeps every PROPERTY, whatever
// its name: JSONSchemaProps, PriorityClass, CustomResourceColumnDefinition and ExternalDocumentation have a
// real field named `description`, which lives under `properties` and is a field like any other.
//
// Run: npm run gen:builtins -- path/to/k8s-v1.33-swagger.json

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outPath = path.resolve(repoRoot, 'src/engine/resources/generated/builtins.ts');

export interface Served {
  group: string;
  version: string;
  plural: string;
  shortNames?: string[];
  categories?: string[];
}

// Discovery facts of the real v1.33 server (`kubectl api-resources`, /apis discovery documents).
const SERVED: Served[] = [
  { group: '', version: 'v1', plural: 'namespaces', shortNames: ['ns'] },
  { group: '', version: 'v1', plural: 'pods', shortNames: ['po'], categories: ['all'] },
  { group: '', version: 'v1', plural: 'services', shortNames: ['svc'], categories: ['all'] },
  { group: '', version: 'v1', plural: 'configmaps', shortNames: ['cm'] },
  { group: '', version: 'v1', plural: 'secrets' },
  { group: '', version: 'v1', plural: 'serviceaccounts', shortNames: ['sa'] },
  { group: '', version: 'v1', plural: 'endpoints', shortNames: ['ep'] },
  { group: '', version: 'v1', plural: 'events', shortNames: ['ev'] },
  { group: '', version: 'v1', plural: 'nodes', shortNames: ['no'] },
  { group: '', version: 'v1', plural: 'persistentvolumes', shortNames: ['pv'] },
  { group: '', version: 'v1', plural: 'persistentvolumeclaims', shortNames: ['pvc'] },
  { group: '', version: 'v1', plural: 'resourcequotas', shortNames: ['quota'] },
  { group: '', version: 'v1', plural: 'limitranges', shortNames: ['limits'] },
  { group: '', version: 'v1', plural: 'replicationcontrollers', shortNames: ['rc'], categories: ['all'] },
  { group: '', version: 'v1', plural: 'podtemplates' },
  { group: 'apps', version: 'v1', plural: 'deployments', shortNames: ['deploy'], categories: ['all'] },
  { group: 'apps', version: 'v1', plural: 'replicasets', shortNames: ['rs'], categories: ['all'] },
  { group: 'apps', version: 'v1', plural: 'statefulsets', shortNames: ['sts'], categories: ['all'] },
  { group: 'apps', version: 'v1', plural: 'daemonsets', shortNames: ['ds'], categories: ['all'] },
  { group: 'apps', version: 'v1', plural: 'controllerrevisions' },
  { group: 'batch', version: 'v1', plural: 'jobs', categories: ['all'] },
  { group: 'batch', version: 'v1', plural: 'cronjobs', shortNames: ['cj'], categories: ['all'] },
  { group: 'autoscaling', version: 'v2', plural: 'horizontalpodautoscalers', shortNames: ['hpa'], categories: ['all'] },
  { group: 'autoscaling', version: 'v1', plural: 'horizontalpodautoscalers', shortNames: ['hpa'], categories: ['all'] },
  { group: 'policy', version: 'v1', plural: 'poddisruptionbudgets', shortNames: ['pdb'] },
  { group: 'networking.k8s.io', version: 'v1', plural: 'ingresses', shortNames: ['ing'] },
  { group: 'networking.k8s.io', version: 'v1', plural: 'ingressclasses' },
  { group: 'networking.k8s.io', version: 'v1', plural: 'networkpolicies', shortNames: ['netpol'] },
  { group: 'discovery.k8s.io', version: 'v1', plural: 'endpointslices' },
  { group: 'events.k8s.io', version: 'v1', plural: 'events', shortNames: ['ev'] },
  { group: 'coordination.k8s.io', version: 'v1', plural: 'leases' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterrolebindings' },
  { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', shortNames: ['crd', 'crds'], categories: ['api-extensions'] },
  { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'validatingadmissionpolicies', categories: ['api-extensions'] },
  { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'validatingadmissionpolicybindings', categories: ['api-extensions'] },
  { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'mutatingwebhookconfigurations', categories: ['api-extensions'] },
  { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'validatingwebhookconfigurations', categories: ['api-extensions'] },
  { group: 'storage.k8s.io', version: 'v1', plural: 'storageclasses', shortNames: ['sc'] },
  { group: 'scheduling.k8s.io', version: 'v1', plural: 'priorityclasses', shortNames: ['pc'] },
  { group: '', version: 'v1', plural: 'componentstatuses', shortNames: ['cs'] },
  { group: 'apiregistration.k8s.io', version: 'v1', plural: 'apiservices', categories: ['api-extensions'] },
  { group: 'authentication.k8s.io', version: 'v1', plural: 'selfsubjectreviews' },
  { group: 'authentication.k8s.io', version: 'v1', plural: 'tokenreviews' },
  { group: 'authorization.k8s.io', version: 'v1', plural: 'localsubjectaccessreviews' },
  { group: 'authorization.k8s.io', version: 'v1', plural: 'selfsubjectaccessreviews' },
  { group: 'authorization.k8s.io', version: 'v1', plural: 'selfsubjectrulesreviews' },
  { group: 'authorization.k8s.io', version: 'v1', plural: 'subjectaccessreviews' },
  { group: 'certificates.k8s.io', version: 'v1', plural: 'certificatesigningrequests', shortNames: ['csr'] },
  { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', plural: 'flowschemas' },
  { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', plural: 'prioritylevelconfigurations' },
  { group: 'networking.k8s.io', version: 'v1', plural: 'ipaddresses', shortNames: ['ip'] },
  { group: 'networking.k8s.io', version: 'v1', plural: 'servicecidrs' },
  { group: 'node.k8s.io', version: 'v1', plural: 'runtimeclasses' },
  { group: 'storage.k8s.io', version: 'v1', plural: 'csidrivers' },
  { group: 'storage.k8s.io', version: 'v1', plural: 'csinodes' },
  { group: 'storage.k8s.io', version: 'v1', plural: 'csistoragecapacities' },
  { group: 'storage.k8s.io', version: 'v1', plural: 'volumeattachments' },
];

/**
 * The group versions a v1.33 kube-apiserver serves with no --runtime-config: the GA ones. Since v1.24 new beta
 * APIs are off by default, and v1.33 keeps no legacy beta resource on (flowcontrol v1beta3 went in v1.32), so
 * certificates/coordination/networking/resource/storage v1beta*, and every alpha, are off.
 */
export function servedByDefault(version: string): boolean {
  return /^v\d+$/.test(version);
}

// `+default=` markers of k8s.io/api v0.33.0 that the real OpenAPI publishes as `default` (the swagger facts
// file omits them). Server-side apply needs them to fill list-map keys (e.g. ports' protocol).
const DEFAULTS: Record<string, Record<string, unknown>> = {
  'io.k8s.api.core.v1.ContainerPort': { protocol: 'TCP' },
  'io.k8s.api.core.v1.ServicePort': { protocol: 'TCP' },
  'io.k8s.api.core.v1.ReplicationControllerSpec': { replicas: 1, minReadySeconds: 0 },
  'io.k8s.api.core.v1.LocalObjectReference': { name: '' },
  'io.k8s.api.core.v1.GRPCAction': { service: '' },
  'io.k8s.api.core.v1.RBDVolumeSource': { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' },
  'io.k8s.api.core.v1.RBDPersistentVolumeSource': { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' },
  'io.k8s.api.core.v1.ISCSIVolumeSource': { iscsiInterface: 'default' },
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource': { iscsiInterface: 'default' },
  'io.k8s.api.core.v1.AzureDiskVolumeSource': { cachingMode: 'ReadWrite', fsType: 'ext4', readOnly: false, kind: 'Shared' },
  'io.k8s.api.core.v1.ScaleIOVolumeSource': { storageMode: 'ThinProvisioned', fsType: 'xfs' },
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource': { storageMode: 'ThinProvisioned', fsType: 'xfs' },
};

// Definitions served besides those reachable from the kinds (used by paths and errors).
const EXTRA_DEFINITIONS = [
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList',
  'io.k8s.api.autoscaling.v1.Scale',
  'io.k8s.api.policy.v1.Eviction',
  'io.k8s.api.authentication.v1.TokenRequest',
];

const KEEP = new Set([
  'type', 'format', 'enum', 'required', 'items', 'properties', 'additionalProperties', '$ref', 'allOf', 'default',
]);
const KEEP_EXT = new Set([
  'x-kubernetes-group-version-kind', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type',
  'x-kubernetes-patch-strategy', 'x-kubernetes-patch-merge-key', 'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-unions',
]);

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function trim(node: Json): Json {
  if (Array.isArray(node)) return node.map(trim);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const key of Object.keys(node).sort()) {
    const v = node[key];
    if (key === '$ref') out.$ref = String(v).replace(/^#\/definitions\//, '');
    else if (key === 'properties') {
      // a map of FIELD names: every entry is kept (a field may be called `description`, `type`, `format`...)
      out.properties = {};
      for (const p of Object.keys(v)) out.properties[p] = trim(v[p]);
    } else if (key === 'items' || key === 'additionalProperties' || key === 'allOf') out[key] = trim(v);
    else if (KEEP.has(key) || KEEP_EXT.has(key)) out[key] = v;
  }
  return out;
}

function refsOf(node: Json, acc: Set<string>): void {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, acc));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') acc.add(v.replace(/^#\/definitions\//, ''));
      else refsOf(v, acc);
    }
  }
}

const ACTION_TO_VERB: Record<string, string> = {
  get: 'get', list: 'list', watch: 'watch', watchlist: 'watch', post: 'create', put: 'update', patch: 'patch',
  delete: 'delete', deletecollection: 'deletecollection',
};
const VERB_ORDER = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** Every property of the source definition (at every depth) is in the trimmed one: trimming never drops fields. */
export function assertSameFields(name: string, source: Json, trimmed: Json, at = ''): void {
  if (!source || typeof source !== 'object') return;
  for (const key of ['items', 'additionalProperties']) {
    if (source[key] && typeof source[key] === 'object') assertSameFields(name, source[key], trimmed?.[key], `${at}.${key}`);
  }
  for (const p of Object.keys(source.properties ?? {})) {
    if (!trimmed?.properties || !(p in trimmed.properties)) throw new Error(`trimming lost the field ${name}${at}.${p}`);
    assertSameFields(name, source.properties[p], trimmed.properties[p], `${at}.${p}`);
  }
}

/** The generated module's source text for a swagger document. */
export function generate(
  swagger: Json,
  only: { served?: Served[]; extraDefinitions?: string[] } = {},
): { source: string; resources: number; definitions: number } {
  const paths: Record<string, Record<string, Json>> = swagger.paths;
  const defs: Record<string, Json> = swagger.definitions;

  const resources: Json[] = [];
  const roots = new Set<string>(only.extraDefinitions ?? EXTRA_DEFINITIONS);
  for (const s of only.served ?? SERVED) {
    const prefix = s.group ? `/apis/${s.group}/${s.version}` : `/api/${s.version}`;
    const nsColl = `${prefix}/namespaces/{namespace}/${s.plural}`;
    const namespaced = nsColl in paths;
    const coll = namespaced ? nsColl : `${prefix}/${s.plural}`;
    const item = `${coll}/{name}`;
    // create-only kinds (reviews) have a collection path and no object path
    const createOnly = !(item in paths);
    if (createOnly && !paths[coll]?.post) throw new Error(`no path ${item}`);
    const watchPrefix = `${prefix}/watch`;
    const candidates = [coll, item, `${prefix}/${s.plural}`,
      namespaced ? `${watchPrefix}/namespaces/{namespace}/${s.plural}` : `${watchPrefix}/${s.plural}`,
      namespaced ? `${watchPrefix}/namespaces/{namespace}/${s.plural}/{name}` : `${watchPrefix}/${s.plural}/{name}`,
      `${watchPrefix}/${s.plural}`];
    const verbs = new Set<string>();
    for (const p of candidates) {
      for (const op of Object.values(paths[p] ?? {})) {
        const a = op && typeof op === 'object' ? op['x-kubernetes-action'] : undefined;
        if (a && ACTION_TO_VERB[a]) verbs.add(ACTION_TO_VERB[a]);
      }
    }
    const getOp = createOnly ? paths[coll].post : paths[item].get;
    const gvk = getOp['x-kubernetes-group-version-kind'];
    const ref: string = String((getOp.responses['200'] ?? getOp.responses['201']).schema.$ref).replace(/^#\/definitions\//, '');
    const listRef: string = createOnly ? '' : String(paths[coll].get.responses['200'].schema.$ref).replace(/^#\/definitions\//, '');
    roots.add(ref);
    if (listRef) roots.add(listRef);
    const subresources: string[] = [];
    for (const sub of ['status', 'scale', 'approval', 'ephemeralcontainers', 'resize']) if (`${item}/${sub}` in paths) subresources.push(sub);
    resources.push({
      group: s.group,
      version: s.version,
      kind: gvk.kind,
      listKind: listRef ? listRef.split('.').pop() : '',
      plural: s.plural,
      singular: String(gvk.kind).toLowerCase(),
      ...(s.shortNames ? { shortNames: s.shortNames } : {}),
      ...(s.categories ? { categories: s.categories } : {}),
      namespaced,
      verbs: VERB_ORDER.filter((v) => verbs.has(v)),
      subresources,
      definition: ref,
      listDefinition: listRef,
    });
  }

  // Transitive closure of referenced definitions.
  const needed = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const name = queue.pop()!;
    if (needed.has(name)) continue;
    if (!defs[name]) throw new Error(`missing definition ${name}`);
    needed.add(name);
    const refs = new Set<string>();
    refsOf(defs[name], refs);
    for (const r of refs) if (!needed.has(r)) queue.push(r);
  }
  const definitions: Record<string, Json> = {};
  for (const name of [...needed].sort()) {
    const t = trim(defs[name]);
    const d = only.served ? undefined : DEFAULTS[name];
    if (d) {
      for (const [prop, value] of Object.entries(d)) {
        if (!t.properties?.[prop]) throw new Error(`no property ${name}.${prop}`);
        t.properties[prop].default = value;
      }
    }
    assertSameFields(name, defs[name], t);
    definitions[name] = t;
  }

  const data = { resources, definitions, catalog: only.served ? [] : catalogOf(swagger) };
  const source =
    '// GENERATED by scripts/gen-builtins.ts from the Kubernetes v1.33 swagger document. Do not edit.\n' +
    "import type { BuiltinData } from '../builtin-data.js';\n\n" +
    `export const builtins: BuiltinData = ${JSON.stringify(data)};\n`;
  return { source, resources: resources.length, definitions: needed.size };
}

export interface CatalogEntry {
  group: string;
  version: string;
  /** `pods`, or `pods/log` for a subresource */
  name: string;
  namespaced: boolean;
  verbs: string[];
}

const METHOD_TO_VERB: Record<string, string> = { get: 'get', post: 'create', put: 'update', patch: 'patch', delete: 'delete' };

/**
 * Every resource and subresource a v1.33 server serves by default (the GA group versions of the swagger
 * document), with its scope and discovery verbs: the list `kubectl api-resources` and the discovery documents
 * of a real cluster show. Tests check discovery against it.
 */
export function catalogOf(swagger: Json): CatalogEntry[] {
  const byKey = new Map<string, { group: string; version: string; name: string; namespaced: boolean; verbs: Set<string> }>();
  for (const [p, ops] of Object.entries(swagger.paths as Record<string, Record<string, Json>>)) {
    const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(?:(watch)\/)?(namespaces\/\{namespace\}\/)?([a-z0-9]+)(?:\/\{name\}(?:\/([a-z]+))?)?$/.exec(p);
    if (!m) continue;
    const group = m[2] ?? '';
    const version = m[1] ?? m[3];
    if (!servedByDefault(version)) continue;
    const watch = !!m[4];
    const namespaced = !!m[5];
    const plural = m[6];
    const sub = m[7];
    // /api/v1/namespaces/{name} is the namespaces resource, not a namespaced collection
    if (plural === 'namespaces' && namespaced && !group) continue;
    const name = sub ? `${plural}/${sub}` : plural;
    const key = `${group}/${version}/${name}`;
    const e = byKey.get(key) ?? { group, version, name, namespaced: false, verbs: new Set<string>() };
    byKey.set(key, e);
    if (namespaced) e.namespaced = true;
    for (const [method, op] of Object.entries(ops)) {
      if (!op || typeof op !== 'object' || !op['x-kubernetes-action']) continue;
      if (sub) {
        if (METHOD_TO_VERB[method]) e.verbs.add(METHOD_TO_VERB[method]);
      } else {
        const a = op['x-kubernetes-action'];
        if (watch) e.verbs.add('watch');
        else if (ACTION_TO_VERB[a]) e.verbs.add(ACTION_TO_VERB[a]);
      }
    }
  }
  return [...byKey.values()]
    .map((e) => ({ group: e.group, version: e.version, name: e.name, namespaced: e.namespaced, verbs: [...e.verbs].sort() }))
    .sort((a, b) => (`${a.group}/${a.version}/${a.name}` < `${b.group}/${b.version}/${b.name}` ? -1 : 1));
}

export function readSwagger(file: string): Json {
  return JSON.parse(readFileSync(file, 'utf8'));
}

export const GENERATED_PATH = outPath;

function main(): void {
  const file = process.argv[2];
  if (!file || file.startsWith('-')) {
    process.stderr.write('usage: npm run gen:builtins -- PATH/TO/k8s-v1.33-swagger.json\n');
    process.exit(2);
  }
  const { source, resources, definitions } = generate(readSwagger(path.resolve(file)));
  mkdirSync(path.dirname(outPath), { recursive: true });
  writeFileSync(outPath, source);
  process.stdout.write(`wrote ${path.relative(repoRoot, outPath)}: ${resources} resources, ${definitions} definitions, ${source.length} bytes\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
