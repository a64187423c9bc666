// Generates src/engine/codec/protobuf/fields.generated.ts: the protobuf field tables the request-body
// decoder needs to turn a `application/vnd.kubernetes.protobuf` body into the JSON the real server would
// write for the same object.
//
// Facts come from two sources in checkouts of k8s.io/api and k8s.io/apimachinery (v0.33.x, i.e. v1.33):
//  - generated.proto: per message its fields (number, scalar/message type, repeated, map<k,v>);
//  - the Go types (*.go beside it): per field its JSON name, `omitempty`, `,inline`, and whether the Go
//    field is a pointer. These decide what encoding/json writes for a decoded struct: a zero scalar
//    without omitempty is written, a nil slice/map/pointer without omitempty is `null`, an inline struct's
//    fields are written at the parent's level.
// Only messages reachable from the top-level kinds of the groups listed in GROUPS are emitted.
//
// Run: npx tsx scripts/gen-protobuf-fields.ts <k8s.io/api checkout> <k8s.io/apimachinery checkout> <k8s.io/apiextensions-apiserver checkout> <k8s.io/kube-aggregator checkout>
// (with a git mirror: `git archive v0.33.9 | tar -x -C <dir>` gives such a checkout).

import { readFileSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outPath = path.resolve(repoRoot, 'src/engine/codec/protobuf/fields.generated.ts');

// Group-version directories of k8s.io/api whose top-level kinds are decoded. The brief's list, plus the
// groups of the other bodies kubectl's typed clients send (create token: authentication/v1;
// auth can-i: authorization/v1; certificate approve/deny: certificates/v1).
const GROUPS = [
  'core/v1', 'apps/v1', 'batch/v1', 'rbac/v1', 'networking/v1', 'policy/v1', 'scheduling/v1', 'storage/v1',
  'coordination/v1', 'discovery/v1', 'autoscaling/v1', 'autoscaling/v2', 'events/v1', 'admissionregistration/v1',
  'authentication/v1', 'authorization/v1', 'certificates/v1',
  // served responses: every GA group of v1.33 (flowcontrol, node)
  'flowcontrol/v1', 'node/v1',
];

// meta.k8s.io messages responses carry: errors and delete results (Status), watch frames (WatchEvent), and
// the metadata-only representations (`as=PartialObjectMetadata[List]`).
const META_ROOTS: Record<string, string> = {
  'v1/Status': 'meta/v1.Status',
  'meta.k8s.io/v1/Status': 'meta/v1.Status',
  'meta.k8s.io/v1/WatchEvent': 'meta/v1.WatchEvent',
  'meta.k8s.io/v1/PartialObjectMetadata': 'meta/v1.PartialObjectMetadata',
  'meta.k8s.io/v1/PartialObjectMetadataList': 'meta/v1.PartialObjectMetadataList',
};

// runtime.Objects with ObjectMeta that no v1.33 endpoint accepts as a body.
const NOT_SERVED = new Set(['core/v1.RangeAllocation', 'core/v1.PodStatusResult']);

// apimachinery packages (proto package suffix -> directory, short id).
const MACHINERY: Array<{ dir: string; id: string }> = [
  { dir: 'pkg/apis/meta/v1', id: 'meta/v1' },
  { dir: 'pkg/api/resource', id: 'resource' },
  { dir: 'pkg/util/intstr', id: 'intstr' },
  { dir: 'pkg/runtime', id: 'runtime' },
  { dir: 'pkg/runtime/schema', id: 'schema' },
];

// Messages whose JSON form is not their field structure; the decoder knows them by these ids.
const SPECIAL = new Set([
  'meta/v1.Time', 'meta/v1.MicroTime', 'meta/v1.Duration', 'meta/v1.FieldsV1',
  'resource.Quantity', 'intstr.IntOrString', 'runtime.RawExtension',
  'apiextensions/v1.JSON', 'apiextensions/v1.JSONSchemaPropsOrArray', 'apiextensions/v1.JSONSchemaPropsOrBool',
  'apiextensions/v1.JSONSchemaPropsOrStringArray',
]);

// Group versions of k8s.io/apiextensions-apiserver (the third checkout): CustomResourceDefinition.
const APIEXTENSIONS = [{ id: 'apiextensions/v1', dir: 'pkg/apis/apiextensions/v1' }];

// Group versions of k8s.io/kube-aggregator (the fourth checkout): APIService.
const AGGREGATOR = [{ id: 'apiregistration/v1', dir: 'pkg/apis/apiregistration/v1' }];

const SCALARS: Record<string, string> = { string: 's', bool: 'b', int32: 'i', int64: 'l', bytes: 'y', uint32: 'u', uint64: 'U', double: 'd', float: 'f' };

interface ProtoField {
  name: string;
  number: number;
  label: 'optional' | 'repeated' | 'map';
  type: string; // scalar name or qualified message id
  keyType?: string;
}
interface GoField {
  goName: string;
  goType: string;
  jsonName: string;
  omitempty: boolean;
  inline: boolean;
  protoName: string | undefined;
  protoNumber: number;
}
interface Pkg {
  id: string; // 'core/v1', 'meta/v1'
  protoPackage: string;
  dir: string;
  messages: Map<string, ProtoField[]>;
  goStructs: Map<string, GoField[]>;
  goSliceTypes: Set<string>; // `type X []T`
  runtimeObjects: Set<string>;
  group?: string;
  version?: string;
}

function usage(): never {
  process.stderr.write('usage: gen-protobuf-fields.ts <k8s.io/api checkout> <k8s.io/apimachinery checkout> <k8s.io/apiextensions-apiserver checkout> <k8s.io/kube-aggregator checkout>\n');
  process.exit(2);
}

const [apiRoot, machineryRoot, apiextensionsRoot, aggregatorRoot] = process.argv.slice(2);
if (!apiRoot || !machineryRoot || !apiextensionsRoot || !aggregatorRoot) usage();

function stripComments(src: string): string {
  // one left-to-right pass, so a `/*` inside a line comment ("pods/*") does not open a block
  return src.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
}

function parseProto(file: string): { protoPackage: string; messages: Map<string, ProtoField[]> } {
  const src = stripComments(readFileSync(file, 'utf8'));
  const pkg = /^package\s+([\w.]+)\s*;/m.exec(src);
  if (!pkg) throw new Error(`${file}: no package`);
  const messages = new Map<string, ProtoField[]>();
  const re = /message\s+(\w+)\s*\{([^{}]*)\}/g;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const fields: ProtoField[] = [];
    for (const line of m[2].split(';')) {
      const t = line.trim();
      if (!t) continue;
      let f = /^map<\s*(\w+)\s*,\s*([\w.]+)\s*>\s+(\w+)\s*=\s*(\d+)$/.exec(t);
      if (f) {
        fields.push({ name: f[3], number: Number(f[4]), label: 'map', keyType: f[1], type: f[2] });
        continue;
      }
      f = /^(optional|repeated|required)\s+([\w.]+)\s+(\w+)\s*=\s*(\d+)(\s*\[.*\])?$/.exec(t);
      if (!f) throw new Error(`${file}: message ${m[1]}: cannot parse field ${JSON.stringify(t)}`);
      fields.push({ name: f[3], number: Number(f[4]), label: f[1] === 'repeated' ? 'repeated' : 'optional', type: f[2] });
    }
    messages.set(m[1], fields);
  }
  return { protoPackage: pkg[1], messages };
}

function parseGo(dir: string): { structs: Map<string, GoField[]>; slices: Set<string>; objects: Set<string> } {
  const structs = new Map<string, GoField[]>();
  const slices = new Set<string>();
  const objects = new Set<string>();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.go') || name.endsWith('_test.go') || name.startsWith('zz_generated') || name === 'generated.pb.go') continue;
    const lines = readFileSync(path.join(dir, name), 'utf8').split('\n');
    let pendingObject = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.includes('+k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object')) pendingObject = true;
      const sl = /^type\s+(\w+)\s+\[\](\w+)\s*$/.exec(line);
      if (sl && sl[2] !== 'byte') slices.add(sl[1]);
      const empty = /^type\s+(\w+)\s+struct\s*\{\s*\}\s*$/.exec(line);
      if (empty) {
        structs.set(empty[1], []);
        pendingObject = false;
        continue;
      }
      const st = /^type\s+(\w+)\s+struct\s*\{\s*$/.exec(line);
      if (!st) {
        if (/^type\s/.test(line)) pendingObject = false;
        continue;
      }
      if (pendingObject) objects.add(st[1]);
      pendingObject = false;
      const fields: GoField[] = [];
      for (i++; i < lines.length && !/^\}/.test(lines[i]); i++) {
        const l = lines[i].replace(/^\s+/, '');
        if (l.startsWith('//') || !l.includes('`')) continue;
        const [decl, tags] = l.split('`');
        const proto = /protobuf:"([^"]*)"/.exec(tags);
        if (!proto || proto[1] === '-') continue;
        const parts = decl.trim().split(/\s+/);
        const goType = parts.length === 1 ? parts[0] : parts[1];
        const goName = parts.length === 1 ? goType.replace(/^\*/, '').replace(/^.*\./, '') : parts[0];
        const json = /json:"([^"]*)"/.exec(tags);
        const jsonParts = json ? json[1].split(',') : [goName];
        if (jsonParts[0] === '-') continue;
        const protoParts = proto[1].split(',');
        // a tag may omit name= (EphemeralContainer's inline EphemeralContainerCommon): matched by number only
        const protoName = protoParts.find((p) => p.startsWith('name='))?.slice(5);
        const inline = jsonParts.slice(1).includes('inline');
        for (const opt of jsonParts.slice(1)) {
          if (opt !== 'omitempty' && opt !== 'inline') throw new Error(`${dir}/${name}: ${st[1]}.${goName}: json option ${opt}`);
        }
        fields.push({
          goName, goType, protoName, protoNumber: Number(protoParts[1]),
          jsonName: jsonParts[0] || goName, omitempty: jsonParts.includes('omitempty'), inline,
        });
      }
      structs.set(st[1], fields);
    }
  }
  return { structs, slices, objects };
}

function loadPkg(id: string, dir: string): Pkg {
  const protoFile = path.join(dir, 'generated.proto');
  if (!existsSync(protoFile)) throw new Error(`missing ${protoFile}`);
  const { protoPackage, messages } = parseProto(protoFile);
  const { structs, slices, objects } = parseGo(dir);
  let group: string | undefined;
  const register = path.join(dir, 'register.go');
  if ((GROUPS.includes(id) || [...APIEXTENSIONS, ...AGGREGATOR].some((a) => a.id === id)) && existsSync(register)) {
    const g = /\bGroupName\s*=\s*"([^"]*)"/.exec(readFileSync(register, 'utf8'));
    if (g) group = g[1];
  }
  return { id, protoPackage, dir, messages, goStructs: structs, goSliceTypes: slices, runtimeObjects: objects, group, version: id.split('/')[1] };
}

const pkgs: Pkg[] = [
  ...GROUPS.map((g) => loadPkg(g, path.join(apiRoot, g))),
  ...MACHINERY.map((m) => loadPkg(m.id, path.join(machineryRoot, m.dir))),
  ...APIEXTENSIONS.map((a) => loadPkg(a.id, path.join(apiextensionsRoot, a.dir))),
  ...AGGREGATOR.map((a) => loadPkg(a.id, path.join(aggregatorRoot, a.dir))),
];
const byProtoPackage = new Map(pkgs.map((p) => [p.protoPackage, p]));
const byId = new Map(pkgs.map((p) => [p.id, p]));

/** Resolves a proto type reference inside `pkg` to a message id `pkgId.Name`. */
function resolve(pkg: Pkg, rawType: string): string {
  const type = rawType.replace(/^\./, '');
  const dot = type.lastIndexOf('.');
  if (dot < 0) {
    if (!pkg.messages.has(type)) throw new Error(`${pkg.id}: unknown message ${type}`);
    return `${pkg.id}.${type}`;
  }
  const target = byProtoPackage.get(type.slice(0, dot));
  if (!target) throw new Error(`${pkg.id}: message ${type} from a package not loaded`);
  const name = type.slice(dot + 1);
  if (!target.messages.has(name)) throw new Error(`${type}: unknown message`);
  return `${target.id}.${name}`;
}

function splitId(id: string): [Pkg, string] {
  const dot = id.lastIndexOf('.');
  return [byId.get(id.slice(0, dot))!, id.slice(dot + 1)];
}

// Top-level kinds: runtime.Objects with an ObjectMeta `metadata` field, lists excluded.
const roots: Array<{ apiVersion: string; kind: string; id: string }> = [];
for (const p of pkgs) {
  if (p.group === undefined) continue;
  for (const name of [...p.runtimeObjects].sort()) {
    if (name.endsWith('List') || NOT_SERVED.has(`${p.id}.${name}`)) continue;
    const fields = p.messages.get(name);
    if (!fields) continue;
    const md = fields.find((f) => f.name === 'metadata');
    if (!md || !md.type.endsWith('ObjectMeta')) continue;
    roots.push({ apiVersion: p.group ? `${p.group}/${p.version}` : p.version!, kind: name, id: `${p.id}.${name}` });
  }
}

// Lists of the top-level kinds (`PodList`: ListMeta metadata, repeated items), for list responses.
const lists: Array<{ apiVersion: string; kind: string; id: string }> = [];
for (const p of pkgs) {
  if (p.group === undefined) continue;
  for (const name of [...p.runtimeObjects].sort()) {
    if (!name.endsWith('List')) continue;
    const fields = p.messages.get(name);
    const item = roots.find((r) => r.id === `${p.id}.${name.slice(0, -4)}`);
    if (!fields || !item) continue;
    const md = fields.find((f) => f.name === 'metadata');
    if (!md || !md.type.endsWith('ListMeta') || !fields.some((f) => f.name === 'items' && f.label === 'repeated')) continue;
    lists.push({ apiVersion: item.apiVersion, kind: name, id: `${p.id}.${name}` });
  }
}

// Reachability.
const reachable = new Set<string>();
const queue = [...roots.map((r) => r.id), ...lists.map((r) => r.id), ...Object.values(META_ROOTS)];
while (queue.length) {
  const id = queue.pop()!;
  if (reachable.has(id)) continue;
  reachable.add(id);
  if (SPECIAL.has(id)) continue;
  const [p, name] = splitId(id);
  for (const f of p.messages.get(name)!) {
    if (!(f.type in SCALARS)) queue.push(resolve(p, f.type));
  }
}

// Encoding of one field: `json=number:type:flags`
//   type: a scalar code (s string, b bool, i int32, l int64, u uint32, U uint64, d double, f float, y bytes)
//         or a message reference (`Name` in the same package, `pkg/id.Name` elsewhere);
//         `[T]` repeated, `{K,V}` map.
//   flags: `?` omitempty, `*` Go pointer, `^` inline (json is empty).
// A message that is a Go named slice (`type ExtraValue []string`) is written `[T]` (its `items`).
function ref(from: Pkg, id: string): string {
  const [p, name] = splitId(id);
  return p === from ? name : id;
}

function encodeType(p: Pkg, t: string): string {
  return SCALARS[t] ?? ref(p, resolve(p, t));
}

const out: Record<string, Record<string, string>> = {};
const sortedIds = [...reachable].filter((id) => !SPECIAL.has(id)).sort();
for (const id of sortedIds) {
  const [p, name] = splitId(id);
  const fields = p.messages.get(name)!;
  let enc: string;
  if (p.goSliceTypes.has(name)) {
    if (fields.length !== 1 || fields[0].label !== 'repeated' || fields[0].number !== 1) throw new Error(`${id}: slice wrapper shape`);
    enc = `[${encodeType(p, fields[0].type)}]`;
  } else {
    const go = p.goStructs.get(name);
    if (!go) throw new Error(`${id}: no Go struct`);
    const parts: string[] = [];
    const seen = new Set<number>();
    for (const g of go) {
      const f = fields.find((x) => x.number === g.protoNumber);
      if (!f) throw new Error(`${id}.${g.goName}: proto field ${g.protoNumber} missing`);
      if (g.protoName !== undefined && f.name !== g.protoName) throw new Error(`${id}.${g.goName}: proto name ${f.name} vs Go tag ${g.protoName}`);
      seen.add(f.number);
      let type: string;
      if (f.label === 'map') type = `{${SCALARS[f.keyType!]},${encodeType(p, f.type)}}`;
      else if (f.label === 'repeated') type = `[${encodeType(p, f.type)}]`;
      else type = encodeType(p, f.type);
      const flags = (g.omitempty ? '?' : '') + (g.goType.startsWith('*') ? '*' : '') + (g.inline ? '^' : '');
      parts.push(`${g.inline ? '' : g.jsonName}=${f.number}:${type}${flags ? ':' + flags : ''}`);
    }
    for (const f of fields) if (!seen.has(f.number)) throw new Error(`${id}: proto field ${f.name} has no Go field`);
    enc = parts.join(';');
  }
  (out[p.id] ??= {})[name] = enc;
}

const kinds: Record<string, string> = {};
for (const r of roots) kinds[`${r.apiVersion}/${r.kind}`] = r.id;
const listKinds: Record<string, string> = {};
for (const r of lists) listKinds[`${r.apiVersion}/${r.kind}`] = r.id;

const header = `// Generated by scripts/gen-protobuf-fields.ts from the generated.proto files and Go types of
// k8s.io/api, k8s.io/apimachinery, k8s.io/apiextensions-apiserver and k8s.io/kube-aggregator v0.33 (Kubernetes v1.33). Do not edit.
//
// MESSAGES[pkg][Name] lists a message's fields in Go struct order as \`json=number:type[:flags]\` joined by ';'.
// type: s string, b bool, i int32, l int64, u uint32, U uint64, d double, f float, y bytes, a message
// (\`Name\` in the same package or \`pkg.Name\`), \`[T]\` repeated, \`{K,V}\` map. flags: ? omitempty,
// * Go pointer, ^ inline (fields written at the parent's level). \`[T]\` alone is a Go named slice (wrapper message).
// Not listed (the decoder knows them): ${[...SPECIAL].join(', ')}.
`;
const body = `${header}
export const MESSAGES: Record<string, Record<string, string>> = ${JSON.stringify(out, null, 1).replace(/\n\s*/g, '\n')};

/** \`apiVersion/kind\` -> message id (\`pkg.Name\`). */
export const KINDS: Record<string, string> = ${JSON.stringify(kinds, null, 1).replace(/\n\s*/g, '\n')};

/** The lists of those kinds (\`apiVersion/PodList\`), for responses. */
export const LIST_KINDS: Record<string, string> = ${JSON.stringify(listKinds, null, 1).replace(/\n\s*/g, '\n')};

/** meta.k8s.io kinds responses carry (Status, WatchEvent, PartialObjectMetadata[List]). */
export const META_KINDS: Record<string, string> = ${JSON.stringify(META_ROOTS, null, 1).replace(/\n\s*/g, '\n')};
`;
writeFileSync(outPath, body);
process.stdout.write(`wrote ${path.relative(repoRoot, outPath)}: ${roots.length} kinds, ${lists.length} lists, ${sortedIds.length} messages, ${body.length} bytes\n`);
