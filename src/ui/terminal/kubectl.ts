// The terminal's kubectl: the everyday commands run against the cluster over plain HTTP (the same requests
// kubectl 1.33 sends: Table for get, server-side apply or a last-applied patch for apply, the scale
// subresource, SelfSubjectAccessReview for can-i), printed in kubectl's formats. Pure apart from the fetch
// function it is given; nothing here runs a shell.

import { loadAll } from 'js-yaml';
import { parseArgs, splitCommandLine, type ParsedArgs } from './argv.js';
import { collectionPath, kindGroup, objectPath, pluralGroup, ResourceCatalog, type Fetcher, type ResourceInfo } from './resources.js';
import { cellText, labelsText, tabwrite, toJson, toYaml } from './print.js';

export interface TerminalContext {
  fetch: Fetcher;
  /** The namespace commands use without -n. */
  namespace: string;
  /** The manifest editor's text, for `apply -f editor` / `create -f editor`. */
  editorText?: () => string;
  /** Discovery, cached by the caller between commands (reloaded when undefined). */
  catalog?: ResourceCatalog;
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  code: number;
  /** Discovery loaded for this command (the caller may keep it). */
  catalog?: ResourceCatalog;
}

class CommandError extends Error {
  constructor(message: string, readonly code = 1) {
    super(message);
  }
}

const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const USER_AGENT = 'kubectl/v1.33.0 (playground terminal)';

export const HELP = `The terminal runs kubectl commands against this cluster (no shell; one command per line):
  get TYPE[,TYPE] [NAME...] [-n NS | -A] [-l SELECTOR] [--field-selector F] [-o wide|yaml|json|name] [--show-labels]
  describe TYPE NAME          apply -f editor [--server-side]      create -f editor
  delete TYPE NAME...         label TYPE NAME k=v k2-  [--overwrite]   annotate TYPE NAME k=v
  scale TYPE NAME --replicas=N                 create namespace NAME
  auth can-i VERB TYPE[/NAME] [-n NS] [--list]  auth whoami
  explain TYPE[.field.path]   api-resources     version
Global flags: -n NAMESPACE, --as USER, --as-group GROUP (repeatable).
"-f editor" (or "-f -") takes the manifest editor's text.
`;

/** Runs one command line (`kubectl ...`, `k ...` or the command alone). */
export async function runKubectl(line: string, ctx: TerminalContext): Promise<CommandResult> {
  const out: string[] = [];
  const err: string[] = [];
  let catalog = ctx.catalog;
  try {
    const split = splitCommandLine(line.trim());
    if (!split.ok) throw new CommandError(`error: ${split.error}`);
    let words = split.words;
    if (words[0] === 'kubectl' || words[0] === 'k') words = words.slice(1);
    if (words.length === 0) return { stdout: '', stderr: '', code: 0, catalog };
    const parsed = parseArgs(words);
    if ('error' in parsed) throw new CommandError(`error: ${parsed.error}`);
    const [verb, ...rest] = parsed.positional;
    const args: ParsedArgs = { ...parsed, positional: rest };
    const headers: Record<string, string> = { 'User-Agent': USER_AGENT };
    if (args.flags.has('as')) headers['Impersonate-User'] = args.flags.get('as')!;
    const fetcher: Fetcher = (path, init = {}) => {
      const h = new Headers(init.headers);
      for (const [k, v] of Object.entries(headers)) if (!h.has(k)) h.set(k, v);
      for (const g of args.all.get('as-group') ?? []) h.append('Impersonate-Group', g);
      return ctx.fetch(path, { ...init, headers: h });
    };
    const cat = async () => (catalog ??= await ResourceCatalog.load(fetcher));
    const env: Env = { fetch: fetcher, cat, out: (s) => out.push(s), err: (s) => err.push(s), ctx, args, namespace: args.flags.get('namespace') ?? ctx.namespace };
    if (args.flags.has('help') || verb === 'help' || verb === undefined) {
      out.push(HELP);
      return { stdout: out.join(''), stderr: '', code: 0, catalog };
    }
    const command = COMMANDS[verb];
    if (!command) throw new CommandError(`error: unknown command "${verb}" for "kubectl"\n\nThis terminal knows: ${Object.keys(COMMANDS).join(', ')}; type "help".`);
    const code = (await command(env)) ?? 0;
    return { stdout: out.join(''), stderr: err.join(''), code, catalog };
  } catch (e) {
    const message = e instanceof CommandError ? e.message : `error: ${e instanceof Error ? e.message : String(e)}`;
    err.push(message.endsWith('\n') ? message : message + '\n');
    return { stdout: out.join(''), stderr: err.join(''), code: e instanceof CommandError ? e.code : 1, catalog };
  }
}

interface Env {
  fetch: Fetcher;
  cat(): Promise<ResourceCatalog>;
  out(s: string): void;
  err(s: string): void;
  ctx: TerminalContext;
  args: ParsedArgs;
  namespace: string;
}

type Command = (env: Env) => Promise<number | void>;

// ---------------------------------------------------------------------------------------------------------
// errors as kubectl prints them (cmdutil.CheckErr / StandardErrorMessage)

interface Status {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { name?: string; kind?: string; group?: string; causes?: { field?: string; message?: string; reason?: string }[] };
}

function statusError(s: Status): CommandError {
  const message = s.message ?? '';
  if (s.reason === 'Invalid' && s.details && (s.details.kind || s.details.name)) {
    const head = `The ${s.details.kind ?? ''} "${s.details.name ?? ''}" is invalid`;
    const causes = (s.details.causes ?? []).map((c) => (c.field ? `${c.field}: ${c.message ?? ''}` : c.message ?? ''));
    if (causes.length === 1) return new CommandError(`${head}: ${causes[0]}`);
    if (causes.length > 1) return new CommandError(`${head}: \n${causes.map((c) => `* ${c}`).join('\n')}`);
    return new CommandError(message);
  }
  if (s.reason === 'Unauthorized') return new CommandError(`error: You must be logged in to the server (${message})`);
  if (s.reason) return new CommandError(`Error from server (${s.reason}): ${message}`);
  return new CommandError(`Error from server: ${message}`);
}

/** The JSON body of a successful response, or the Status error kubectl would print. */
async function expectOk<T>(r: Response): Promise<T> {
  const text = await r.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = undefined;
  }
  if (r.ok) return body as T;
  if (body && typeof body === 'object' && (body as Status).kind === 'Status') throw statusError(body as Status);
  throw new CommandError(`Error from server: an error on the server ("${text.slice(0, 200)}") has prevented the request from succeeding`);
}

function warningsOf(r: Response, env: Env): void {
  const w = r.headers.get('Warning');
  if (!w) return;
  // 299 - "text" entries, comma separated
  for (const m of w.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)) env.err(`Warning: ${m[1].replace(/\\(.)/g, '$1')}\n`);
}

async function resolveType(env: Env, word: string): Promise<ResourceInfo> {
  const r = (await env.cat()).resolve(word);
  if (!r) throw new CommandError(`error: the server doesn't have a resource type "${word}"`);
  return r;
}

function metaOf(o: unknown): { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> } {
  return ((o as { metadata?: unknown } | null)?.metadata ?? {}) as ReturnType<typeof metaOf>;
}

/** TYPE NAME..., TYPE/NAME..., TYPE1,TYPE2 into (resource, names) pairs in the order given. */
async function targets(env: Env, words: string[]): Promise<{ res: ResourceInfo; names: string[] }[]> {
  if (words.length === 0) throw new CommandError('error: you must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.');
  if (words[0].includes('/')) {
    const out: { res: ResourceInfo; names: string[] }[] = [];
    for (const w of words) {
      const i = w.indexOf('/');
      if (i < 0) throw new CommandError(`error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'`);
      const res = await resolveType(env, w.slice(0, i));
      const last = out.at(-1);
      if (last && last.res === res) last.names.push(w.slice(i + 1));
      else out.push({ res, names: [w.slice(i + 1)] });
    }
    return out;
  }
  const types: ResourceInfo[] = [];
  for (const t of words[0].split(',').filter(Boolean)) {
    if (t === 'all') types.push(...(await env.cat()).category('all'));
    else types.push(await resolveType(env, t));
  }
  return types.map((res) => ({ res, names: words.slice(1) }));
}

// ---------------------------------------------------------------------------------------------------------
// get

interface Table {
  columnDefinitions: { name: string; priority?: number }[];
  rows: { cells: unknown[]; object?: unknown }[];
}

const get: Command = async (env) => {
  const { args } = env;
  const output = args.flags.get('output') ?? '';
  const allNs = args.flags.get('all-namespaces') === 'true';
  const ts = await targets(env, args.positional);
  const multi = ts.length > 1 || args.positional[0] === 'all' || args.positional[0]?.includes('/');
  const query = new URLSearchParams();
  if (args.flags.has('selector')) query.set('labelSelector', args.flags.get('selector')!);
  if (args.flags.has('field-selector')) query.set('fieldSelector', args.flags.get('field-selector')!);

  if (output === 'yaml' || output === 'json' || output === 'name') {
    const objects: unknown[] = [];
    let single = false;
    for (const { res, names } of ts) {
      const gv = res.group ? `${res.group}/${res.version}` : res.version;
      if (names.length) {
        for (const n of names) {
          const o = await expectOk<Record<string, unknown>>(await env.fetch(objectPath(res, env.namespace, n), { headers: { Accept: 'application/json' } }));
          objects.push(o);
        }
        single = ts.length === 1 && names.length === 1;
      } else {
        const q = new URLSearchParams(query);
        q.set('limit', '500');
        const list = await expectOk<{ items?: Record<string, unknown>[] }>(await env.fetch(`${collectionPath(res, allNs ? undefined : env.namespace)}?${q}`, { headers: { Accept: 'application/json' } }));
        for (const o of list.items ?? []) objects.push({ apiVersion: gv, kind: res.kind, ...o });
      }
      if (output === 'name') for (const o of objects.splice(0)) env.out(`${kindGroup(res)}/${metaOf(o).name}\n`);
    }
    if (output === 'name') return;
    // kubectl hides managedFields unless --show-managed-fields
    if (args.flags.get('show-managed-fields') !== 'true') for (const o of objects) delete (metaOf(o) as { managedFields?: unknown }).managedFields;
    const value = single ? objects[0] : { apiVersion: 'v1', items: objects, kind: 'List', metadata: { resourceVersion: '' } };
    env.out(output === 'yaml' ? toYaml(value) : toJson(sortKeys(value)));
    return;
  }
  if (output !== '' && output !== 'wide') throw new CommandError(`error: unable to match a printer suitable for the output format "${output}", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml`);

  let printed = 0;
  let code = 0;
  for (const { res, names } of ts) {
    const tables: Table[] = [];
    if (names.length) {
      for (const n of names) {
        const r = await env.fetch(objectPath(res, env.namespace, n), { headers: { Accept: TABLE_ACCEPT } });
        if (!r.ok) {
          try {
            await expectOk(r);
          } catch (e) {
            env.err((e as Error).message + '\n');
            code = 1;
          }
          continue;
        }
        tables.push((await r.json()) as Table);
      }
    } else {
      let cont = '';
      do {
        const q = new URLSearchParams(query);
        q.set('limit', '500');
        if (cont) q.set('continue', cont);
        const r = await env.fetch(`${collectionPath(res, allNs ? undefined : env.namespace)}?${q}`, { headers: { Accept: TABLE_ACCEPT } });
        warningsOf(r, env);
        const t = await expectOk<Table & { metadata?: { continue?: string } }>(r);
        tables.push(t);
        cont = t.metadata?.continue ?? '';
      } while (cont);
    }
    const rows = tables.flatMap((t) => t.rows ?? []);
    if (rows.length === 0) continue;
    const wide = args.flags.get('output') === 'wide';
    const cols = tables[0].columnDefinitions.map((c, i) => ({ ...c, i })).filter((c) => wide || !c.priority);
    const header = [...(allNs && res.namespaced ? ['NAMESPACE'] : []), ...cols.map((c) => c.name.toUpperCase()), ...(args.flags.get('show-labels') === 'true' ? ['LABELS'] : [])];
    const lines = rows.map((row) => {
      const meta = metaOf(row.object);
      return [
        ...(allNs && res.namespaced ? [meta.namespace ?? ''] : []),
        ...cols.map((c, k) => {
          const text = cellText(row.cells[c.i]);
          return k === 0 && multi ? `${kindGroup(res)}/${text}` : text;
        }),
        ...(args.flags.get('show-labels') === 'true' ? [labelsText(meta.labels)] : []),
      ];
    });
    if (printed > 0) env.out('\n');
    env.out(tabwrite(args.flags.get('no-headers') === 'true' ? lines : [header, ...lines]));
    printed++;
  }
  if (printed === 0 && code === 0 && !ts.some((t) => t.names.length)) {
    const nsScoped = ts.some((t) => t.res.namespaced) && !allNs;
    env.err(nsScoped ? `No resources found in ${env.namespace} namespace.\n` : 'No resources found\n');
  }
  return code;
};

/** Keys sorted at every level, as Go writes an unstructured object (a map) to JSON. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// describe (kubectl's generic describer, for every kind)

function smartLabel(key: string): string {
  // kubectl's smartLabelFor: split camelCase into words, keep known acronyms upper-case
  const ACRONYMS = new Set(['api', 'cpu', 'dns', 'id', 'ip', 'ips', 'json', 'pvc', 'tls', 'uid', 'url', 'uuid', 'http', 'https', 'os', 'cidr', 'sni']);
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_-]+/);
  return words.map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1))).join(' ');
}

function describeValue(lines: string[], value: unknown, indent: number, label: string): void {
  const pad = '  '.repeat(indent);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value).sort();
    lines.push(`${pad}${label}:`);
    for (const k of keys) describeValue(lines, (value as Record<string, unknown>)[k], indent + 1, smartLabel(k));
  } else if (Array.isArray(value)) {
    if (value.length && value.every((x) => x && typeof x === 'object')) {
      lines.push(`${pad}${label}:`);
      for (const item of value) {
        const keys = Object.keys(item as object).sort();
        keys.forEach((k, i) => {
          const sub: string[] = [];
          describeValue(sub, (item as Record<string, unknown>)[k], indent + 1, smartLabel(k));
          if (i === 0 && sub.length) sub[0] = sub[0].replace(/^(\s*)  /, '$1- ').replace(/^(\s*)(?!- )/, '$1');
          lines.push(...sub);
        });
      }
    } else lines.push(`${pad}${label}:\t${value.map((x) => String(x)).join(', ')}`);
  } else lines.push(`${pad}${label}:\t${value === null ? '<nil>' : String(value)}`);
}

function alignTabs(lines: string[]): string {
  // tabwriter over the whole block, as kubectl's tabbedString (padding 2)
  const cells = lines.map((l) => l.split('\t'));
  const width = Math.max(0, ...cells.filter((c) => c.length > 1).map((c) => c[0].length));
  return cells.map((c) => (c.length > 1 ? c[0] + ' '.repeat(width - c[0].length + 2) + c.slice(1).join('\t') : c[0])).join('\n') + '\n';
}

function mapLines(label: string, m: Record<string, string> | undefined): string[] {
  const keys = Object.keys(m ?? {}).sort();
  if (!keys.length) return [`${label}:\t<none>`];
  return keys.map((k, i) => `${i === 0 ? `${label}:` : ''}\t${k}=${m![k]}`);
}

const describe: Command = async (env) => {
  const ts = await targets(env, env.args.positional);
  const chunks: string[] = [];
  for (const { res, names } of ts) {
    let objects: Record<string, unknown>[];
    if (names.length) objects = await Promise.all(names.map(async (n) => expectOk<Record<string, unknown>>(await env.fetch(objectPath(res, env.namespace, n)))));
    else objects = (await expectOk<{ items?: Record<string, unknown>[] }>(await env.fetch(collectionPath(res, env.namespace)))).items ?? [];
    for (const o of objects) {
      const meta = metaOf(o) as Record<string, unknown> & ReturnType<typeof metaOf>;
      const lines = [`Name:\t${meta.name ?? ''}`, `Namespace:\t${meta.namespace ?? ''}`, ...mapLines('Labels', meta.labels), ...mapLines('Annotations', meta.annotations)];
      const body: Record<string, unknown> = { apiVersion: res.group ? `${res.group}/${res.version}` : res.version, kind: res.kind, ...o };
      const { name: _n, namespace: _ns, labels: _l, annotations: _a, ...restMeta } = meta;
      body.metadata = restMeta;
      for (const k of Object.keys(body).sort()) describeValue(lines, body[k], 0, smartLabel(k));
      // events about the object
      const uid = (meta as { uid?: string }).uid;
      const q = new URLSearchParams({ fieldSelector: `involvedObject.name=${meta.name},involvedObject.namespace=${meta.namespace ?? ''}${uid ? `,involvedObject.uid=${uid}` : ''}` });
      const evr = await env.fetch(`/api/v1${meta.namespace ? `/namespaces/${meta.namespace}` : ''}/events?${q}`);
      const events = evr.ok ? (((await evr.json()) as { items?: Record<string, unknown>[] }).items ?? []) : [];
      if (!events.length) lines.push('Events:\t<none>');
      let text = alignTabs(lines);
      if (events.length) {
        text += 'Events:\n' + tabwrite([['  Type', 'Reason', 'Age', 'From', 'Message'], ['  ----', '------', '----', '----', '-------'], ...events.map((e) => [`  ${e.type ?? ''}`, String(e.reason ?? ''), '', String((e.source as { component?: string } | undefined)?.component ?? e.reportingComponent ?? ''), String(e.message ?? '')])]);
      }
      chunks.push(text);
    }
  }
  env.out(chunks.join('\n\n'));
};

// ---------------------------------------------------------------------------------------------------------
// apply / create -f

/** The name kubectl gives the manifests' source in its messages (`-f -` reads standard input). */
function sourceName(env: Env): string {
  return env.args.flags.get('filename') === '-' ? 'STDIN' : 'editor';
}

/** Runs `fn`, prefixing a server error as kubectl does for objects read from files. */
async function fromFile<T>(env: Env, doing: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof CommandError && e.message.startsWith('Error from server')) {
      throw new CommandError(e.message.replace(/^(Error from server(?: \([A-Za-z]+\))?: )/, `$1error when ${doing} "${sourceName(env)}": `), e.code);
    }
    throw e;
  }
}

function manifestsFrom(env: Env): Record<string, unknown>[] {
  const f = env.args.flags.get('filename');
  if (!f) throw new CommandError('error: must specify one of -f and -k');
  if (f !== 'editor' && f !== '-') throw new CommandError(`error: the path "${f}" does not exist (the terminal reads only the editor: use -f editor)`);
  const text = env.ctx.editorText?.() ?? '';
  let docs: unknown[];
  try {
    docs = loadAll(text);
  } catch (e) {
    throw new CommandError(`error: error parsing editor: ${(e as Error).message.split('\n')[0]}`);
  }
  const objs = docs.filter((d): d is Record<string, unknown> => !!d && typeof d === 'object');
  const expanded: Record<string, unknown>[] = [];
  for (const o of objs) {
    if (typeof o.kind === 'string' && o.kind.endsWith('List') && Array.isArray(o.items)) expanded.push(...(o.items as Record<string, unknown>[]));
    else expanded.push(o);
  }
  if (!expanded.length) throw new CommandError('error: no objects passed to apply');
  return expanded;
}

async function resourceFor(env: Env, o: Record<string, unknown>): Promise<ResourceInfo> {
  const apiVersion = String(o.apiVersion ?? '');
  const kind = String(o.kind ?? '');
  const cat = await env.cat();
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const res = cat.everyVersion.find((r) => r.group === group && r.version === version && r.kind === kind);
  if (!res) throw new CommandError(`error: resource mapping not found for name: "${metaOf(o).name ?? ''}" namespace: "${metaOf(o).namespace ?? ''}" from "editor": no matches for kind "${kind}" in version "${apiVersion}"\nensure CRDs are installed first`);
  return res;
}

/** A JSON merge patch turning `from` into `to` (null deletes). */
function mergeDiff(from: unknown, to: unknown): unknown {
  if (!from || !to || typeof from !== 'object' || typeof to !== 'object' || Array.isArray(from) || Array.isArray(to)) return JSON.stringify(from) === JSON.stringify(to) ? undefined : to;
  const out: Record<string, unknown> = {};
  const f = from as Record<string, unknown>;
  const t = to as Record<string, unknown>;
  for (const k of Object.keys(f)) if (!(k in t)) out[k] = null;
  for (const k of Object.keys(t)) {
    const d = k in f ? mergeDiff(f[k], t[k]) : t[k];
    if (d !== undefined) out[k] = d;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Fields of `patch` that change `live` (so that a patch repeating the live state counts as unchanged). */
function changes(live: unknown, patch: unknown): boolean {
  if (patch === null) return live !== undefined && live !== null;
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return JSON.stringify(live) !== JSON.stringify(patch);
  if (!live || typeof live !== 'object') return true;
  return Object.entries(patch).some(([k, v]) => changes((live as Record<string, unknown>)[k], v));
}

const apply: Command = async (env) => {
  const serverSide = env.args.flags.get('server-side') === 'true';
  const manager = env.args.flags.get('field-manager') ?? (serverSide ? 'kubectl' : 'kubectl-client-side-apply');
  for (const o of manifestsFrom(env)) {
    const res = await resourceFor(env, o);
    const meta = metaOf(o);
    const ns = meta.namespace ?? env.namespace;
    const name = meta.name ?? '';
    const id = `${kindGroup(res)}/${name}`;
    if (serverSide) {
      const q = new URLSearchParams({ fieldManager: manager });
      if (env.args.flags.get('force-conflicts') === 'true') q.set('force', 'true');
      const r = await env.fetch(`${objectPath(res, ns, name)}?${q}`, { method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: JSON.stringify(o) });
      warningsOf(r, env);
      await expectOk(r);
      env.out(`${id} serverside-applied\n`);
      continue;
    }
    // client-side apply: the manifest is recorded in the last-applied annotation; a three-way diff against
    // it becomes the patch (sent as a JSON merge patch: lists are replaced whole)
    // (kubectl records the manifest with its namespace set and the annotation emptied, keys sorted)
    const recorded = JSON.parse(JSON.stringify(o)) as Record<string, unknown>;
    const rmeta = (recorded.metadata ??= {}) as { annotations?: Record<string, string>; namespace?: string };
    if (res.namespaced) rmeta.namespace = ns;
    rmeta.annotations = { ...(rmeta.annotations ?? {}) };
    delete rmeta.annotations[LAST_APPLIED];
    const lastApplied = JSON.stringify(sortKeys(recorded)) + '\n';
    const desired = JSON.parse(JSON.stringify(recorded)) as Record<string, unknown>;
    const dmeta = desired.metadata as { annotations?: Record<string, string> };
    dmeta.annotations = { ...(dmeta.annotations ?? {}), [LAST_APPLIED]: lastApplied };
    const cur = await env.fetch(objectPath(res, ns, name));
    if (cur.status === 404) {
      await cur.text();
      const r = await env.fetch(`${collectionPath(res, ns)}?fieldManager=${encodeURIComponent(manager)}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(desired) });
      warningsOf(r, env);
      await fromFile(env, 'creating', () => expectOk(r));
      env.out(`${id} created\n`);
      continue;
    }
    const live = await expectOk<Record<string, unknown>>(cur);
    const previous = metaOf(live).annotations?.[LAST_APPLIED];
    let original: unknown = {};
    try {
      original = previous ? JSON.parse(previous) : {};
    } catch {
      original = {};
    }
    // fields set in the manifest, plus deletions of fields the previous apply set and this one drops
    const patch = (mergeDiff(original, desired) ?? {}) as Record<string, unknown>;
    if (!previous) env.err(`Warning: resource ${pluralGroup(res)}/${name} is missing the ${LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`);
    if (!changes(live, patch)) {
      env.out(`${id} unchanged\n`);
      continue;
    }
    const r = await env.fetch(`${objectPath(res, ns, name)}?fieldManager=${encodeURIComponent(manager)}`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify(patch) });
    warningsOf(r, env);
    await expectOk(r);
    env.out(`${id} configured\n`);
  }
};

const create: Command = async (env) => {
  const [sub, name] = env.args.positional;
  if (sub === 'namespace' || sub === 'ns') {
    if (!name) throw new CommandError('error: exactly one NAME is required, got 0');
    const r = await env.fetch('/api/v1/namespaces?fieldManager=kubectl-create', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) });
    await expectOk(r);
    env.out(`namespace/${name} created\n`);
    return;
  }
  if (sub) throw new CommandError(`error: the terminal creates from the editor (create -f editor) or namespaces (create namespace NAME); "create ${sub}" is not available here`);
  for (const o of manifestsFrom(env)) {
    const res = await resourceFor(env, o);
    const ns = metaOf(o).namespace ?? env.namespace;
    const r = await env.fetch(`${collectionPath(res, ns)}?fieldManager=kubectl-create`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(o) });
    warningsOf(r, env);
    const made = await fromFile(env, 'creating', () => expectOk<Record<string, unknown>>(r));
    env.out(`${kindGroup(res)}/${metaOf(made).name} created\n`);
  }
};

// ---------------------------------------------------------------------------------------------------------
// delete, label, annotate, scale

const del: Command = async (env) => {
  const ts = await targets(env, env.args.positional);
  let code = 0;
  for (const { res, names } of ts) {
    if (!names.length) throw new CommandError('error: resource(s) were provided, but no name was specified');
    for (const n of names) {
      const r = await env.fetch(objectPath(res, env.namespace, n), { method: 'DELETE' });
      if (r.status === 404 && env.args.flags.get('ignore-not-found') === 'true') continue;
      try {
        warningsOf(r, env);
        await expectOk(r);
        env.out(`${kindGroup(res)} "${n}" deleted\n`);
      } catch (e) {
        env.err((e as Error).message + '\n');
        code = 1;
      }
    }
  }
  return code;
};

function metadataMapCommand(field: 'labels' | 'annotations', done: string): Command {
  return async (env) => {
    const words = env.args.positional;
    const firstChange = words.findIndex((w) => w.includes('=') || w.endsWith('-'));
    if (firstChange < 0) throw new CommandError(`error: at least one ${field === 'labels' ? 'label' : 'annotation'} update is required`);
    const ts = await targets(env, words.slice(0, firstChange));
    const set: Record<string, string | null> = {};
    for (const w of words.slice(firstChange)) {
      if (w.endsWith('-') && !w.includes('=')) set[w.slice(0, -1)] = null;
      else {
        const i = w.indexOf('=');
        set[w.slice(0, i)] = w.slice(i + 1);
      }
    }
    for (const { res, names } of ts) {
      for (const n of names) {
        const live = await expectOk<Record<string, unknown>>(await env.fetch(objectPath(res, env.namespace, n)));
        const cur = (metaOf(live)[field] ?? {}) as Record<string, string>;
        if (env.args.flags.get('overwrite') !== 'true') {
          for (const [k, v] of Object.entries(set)) {
            if (v !== null && k in cur && cur[k] !== v) throw new CommandError(`error: '${k}' already has a value (${cur[k]}), and --overwrite is false`);
          }
        }
        const manager = env.args.flags.get('field-manager') ?? (field === 'labels' ? 'kubectl-label' : 'kubectl-annotate');
        const r = await env.fetch(`${objectPath(res, env.namespace, n)}?fieldManager=${encodeURIComponent(manager)}`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ metadata: { [field]: set } }) });
        warningsOf(r, env);
        await expectOk(r);
        // kubectl's message: unchanged, or "un"-prefixed when (without --overwrite) the map got shorter
        const next: Record<string, string> = { ...cur };
        for (const [k, v] of Object.entries(set)) {
          if (v === null) delete next[k];
          else next[k] = v;
        }
        const before = JSON.stringify(cur);
        const after = JSON.stringify(next);
        let msg = done;
        if (field === 'labels') {
          if (before === after) msg = `not ${done}`;
          else if (env.args.flags.get('overwrite') !== 'true' && after.length < before.length) msg = `un${done}`;
        }
        env.out(`${kindGroup(res)}/${n} ${msg}\n`);
      }
    }
  };
}

const scale: Command = async (env) => {
  const replicas = env.args.flags.get('replicas');
  if (replicas === undefined || !/^\d+$/.test(replicas)) throw new CommandError('error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
  const ts = await targets(env, env.args.positional);
  for (const { res, names } of ts) {
    for (const n of names) {
      // kubectl scale names no field manager: the server takes it from the User-Agent ("kubectl")
      const fm = env.args.flags.get('field-manager');
      const r = await env.fetch(`${objectPath(res, env.namespace, n, 'scale')}${fm ? `?fieldManager=${encodeURIComponent(fm)}` : ''}`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { replicas: Number(replicas) } }) });
      await expectOk(r);
      env.out(`${kindGroup(res)}/${n} scaled\n`);
    }
  }
};

// ---------------------------------------------------------------------------------------------------------
// auth

const auth: Command = async (env) => {
  const [sub, ...rest] = env.args.positional;
  if (sub === 'whoami') {
    const r = await env.fetch('/apis/authentication.k8s.io/v1/selfsubjectreviews', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }) });
    // kubectl words a refusal (or a missing API) its own way
    if (r.status === 403 || r.status === 404) {
      await r.text();
      throw new CommandError('error: the selfsubjectreviews API is not enabled in the cluster or you do not have permission to call it');
    }
    const review = await expectOk<{ status?: { userInfo?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> } } }>(r);
    const u = review.status?.userInfo ?? {};
    const rows = [['ATTRIBUTE', 'VALUE'], ['Username', u.username ?? '']];
    if (u.uid) rows.push(['UID', u.uid]);
    if (u.groups?.length) rows.push(['Groups', `[${u.groups.join(' ')}]`]);
    for (const k of Object.keys(u.extra ?? {}).sort()) rows.push([`Extra: ${k}`, `[${u.extra![k].join(' ')}]`]);
    env.out(tabwrite(rows));
    return;
  }
  if (sub !== 'can-i') throw new CommandError(`error: unknown command "${sub ?? ''}" for "kubectl auth" (can-i, whoami)`);
  const allNs = env.args.flags.get('all-namespaces') === 'true';
  if (env.args.flags.get('list') === 'true') {
    const review = await expectOk<{ status?: { resourceRules?: { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }[]; nonResourceRules?: { verbs: string[]; nonResourceURLs?: string[] }[] } }>(
      await env.fetch('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: env.namespace } }) }),
    );
    const rows = [['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']];
    for (const r of review.status?.resourceRules ?? []) {
      const groups = r.apiGroups ?? [''];
      for (const res of r.resources ?? []) for (const g of groups) rows.push([g ? `${res}.${g}` : res, '[]', `[${(r.resourceNames ?? []).join(' ')}]`, `[${r.verbs.join(' ')}]`]);
    }
    for (const r of review.status?.nonResourceRules ?? []) rows.push(['', `[${(r.nonResourceURLs ?? []).join(' ')}]`, '[]', `[${r.verbs.join(' ')}]`]);
    env.out(tabwrite(rows));
    return;
  }
  const [verb, what, sub2] = rest;
  if (!verb || !what) throw new CommandError('error: you must specify two arguments: verb resource or verb resource/resourceName.');
  let spec: Record<string, unknown>;
  if (what.startsWith('/')) spec = { nonResourceAttributes: { verb, path: what } };
  else {
    const [type, name] = what.split('/');
    const cat = await env.cat();
    const res = cat.resolve(type);
    if (!res) env.err(`Warning: the server doesn't have a resource type '${type}'\n`);
    spec = {
      resourceAttributes: {
        namespace: allNs ? '' : env.namespace,
        verb,
        group: res?.group ?? '',
        resource: res?.plural ?? type,
        ...(env.args.flags.has('subresource') || sub2 ? { subresource: env.args.flags.get('subresource') ?? sub2 } : {}),
        ...(name ? { name } : {}),
      },
    };
  }
  const review = await expectOk<{ status?: { allowed?: boolean; reason?: string; evaluationError?: string } }>(
    await env.fetch('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec }) }),
  );
  if (review.status?.allowed) {
    env.out('yes\n');
    return 0;
  }
  env.out(`no${review.status?.reason ? ` - ${review.status.reason}` : ''}\n`);
  return 1;
};

// ---------------------------------------------------------------------------------------------------------
// explain (from /openapi/v3), api-resources, version

interface OpenApiSchema {
  type?: string;
  description?: string;
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema | boolean;
  allOf?: OpenApiSchema[];
  $ref?: string;
  required?: string[];
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

function typeName(s: OpenApiSchema, deref: (s: OpenApiSchema) => OpenApiSchema): string {
  const d = deref(s);
  if (d.type === 'array') return `[]${typeName(d.items ?? {}, deref)}`;
  if (d.type === 'object' && d.additionalProperties && typeof d.additionalProperties === 'object') return `map[string]${typeName(d.additionalProperties, deref)}`;
  if (d.type === 'object' || d.properties) {
    const ref = s.$ref ?? s.allOf?.[0]?.$ref;
    return ref ? ref.split('/').pop()!.split('.').pop()! : 'Object';
  }
  return d.type ?? 'Object';
}

function wrap(text: string, indent: string): string {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const w of para.split(' ')) {
      if (line && (line + ' ' + w).length > 80 - indent.length) {
        out.push(indent + line);
        line = w;
      } else line = line ? `${line} ${w}` : w;
    }
    out.push(indent + line);
  }
  return out.join('\n') + '\n';
}

const explain: Command = async (env) => {
  const [target] = env.args.positional;
  if (!target) throw new CommandError('error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.');
  const [typeWord, ...path] = target.split('.');
  const res = await resolveType(env, typeWord);
  const gvPath = res.group ? `apis/${res.group}/${res.version}` : `api/${res.version}`;
  const doc = await expectOk<{ components?: { schemas?: Record<string, OpenApiSchema> } }>(await env.fetch(`/openapi/v3/${gvPath}`, { headers: { Accept: 'application/json' } }));
  const schemas = doc.components?.schemas ?? {};
  const deref = (s: OpenApiSchema): OpenApiSchema => {
    const ref = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0].$ref : undefined);
    if (!ref) return s;
    const target = schemas[ref.replace('#/components/schemas/', '')] ?? {};
    return { ...target, description: s.description ?? target.description };
  };
  const root = Object.values(schemas).find((s) => s['x-kubernetes-group-version-kind']?.some((g) => g.group === res.group && g.version === res.version && g.kind === res.kind));
  if (!root) throw new CommandError(`error: couldn't find resource for "${target}"`);
  let node = root;
  let fieldName = '';
  for (const p of path) {
    let d = deref(node);
    while (d.type === 'array' && d.items) d = deref(d.items);
    const next = d.properties?.[p];
    if (!next) throw new CommandError(`error: field "${p}" does not exist`);
    node = next;
    fieldName = p;
  }
  const lines = [`GROUP:      ${res.group}`, `KIND:       ${res.kind}`, `VERSION:    ${res.version}`, ''];
  if (!res.group) lines.shift();
  if (fieldName) lines.push(`FIELD: ${fieldName} <${typeName(node, deref)}>`, '');
  let d = deref(node);
  const desc = d.description ?? '';
  lines.push('DESCRIPTION:');
  let text = lines.join('\n') + '\n' + wrap(desc || '<empty>', '    ');
  while (d.type === 'array' && d.items) d = deref(d.items);
  const props = d.properties ?? {};
  const names = Object.keys(props).sort();
  if (names.length) {
    text += '    \nFIELDS:\n';
    for (const n of names) {
      const req = d.required?.includes(n) ? ' -required-' : '';
      text += `  ${n}\t<${typeName(props[n], deref)}>${req}\n`;
      const pd = deref(props[n]).description;
      text += wrap(pd ?? '<no description>', '    ') + '\n';
    }
  }
  env.out(text);
};

const apiResources: Command = async (env) => {
  const cat = await env.cat();
  const rows = [['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']];
  for (const r of cat.preferred) rows.push([r.plural, r.shortNames.join(','), r.group ? `${r.group}/${r.version}` : r.version, String(r.namespaced), r.kind]);
  env.out(tabwrite(rows));
};

const version: Command = async (env) => {
  const v = await expectOk<{ gitVersion?: string }>(await env.fetch('/version'));
  env.out(`Client Version: v1.33.0 (playground terminal)\nServer Version: ${v.gitVersion ?? ''}\n`);
};

const COMMANDS: Record<string, Command> = {
  get,
  describe,
  apply,
  create,
  delete: del,
  label: metadataMapCommand('labels', 'labeled'),
  annotate: metadataMapCommand('annotations', 'annotated'),
  scale,
  auth,
  explain,
  'api-resources': apiResources,
  version,
};
