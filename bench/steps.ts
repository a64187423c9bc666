// Where the time goes (issue 17 item 3): each request kind run in a loop under the V8 CPU profiler (the
// measured loop only, after a warm-up), every sample charged to the innermost engine function that names a
// step of the request, and each step's share turned into µs per request from the loop's wall time.
//   npx tsx bench/steps.ts [-v] [--md] [--rounds N] [--serve] [--engine other-build.mjs] [create|get|update|patch|apply|apply-change|apply-cm|smp|create-cm|get-cm|update-cm ...]
// Runs the engine bundled as it ships (bench/bundled.ts), over the memory storage, through handle() (a fetch
// Request in, a Response read), or with --serve through the engine's own entry serve() (the body as JSON
// text in, the answer read as text; no fetch objects).
import { Session } from 'node:inspector/promises';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importBundled, textCaller } from './bundled.js';

// `--engine <file.mjs>`: another build of bench/engine-entry.ts (e.g. of the main branch, for a before/after)
const other = process.argv.includes('--engine') ? process.argv[process.argv.indexOf('--engine') + 1] : undefined;
const viaServe = process.argv.includes('--serve');
const { createApiServer, createMemoryStorage, systemEnv, serveCaller } = other
  ? ((await import(pathToFileURL(resolve(other)).href)) as typeof import('./engine-entry.js'))
  : await importBundled<typeof import('./engine-entry.js')>('bench/engine-entry.ts');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** Steps in the order a request passes them; a frame names a step when its function is one of these. */
export const STEPS: [string, RegExp][] = [
  ['routing, authentication, authorization', /^(handle|parsedUrl|searchOf|requestInfo|pathSegments|authenticate|impersonate|authorize|requestAttributes|requestAuthorization|resource|serve|negotiate|writeOptions|validateFieldManager|prefixFromUserAgent|guardEscalation|routeLabels|lookup|stripBase|wantsPretty|splitTarget|handleCreate|handleGet|handleUpdate|handlePatch|prefixFromUserAgent|AuditContext)$/],
  ['metrics', /^(instrument|record|observe|labelText|label|now)$/],
  ['decode (body read, JSON parse, kind)', /^(decodeObjectBody|readLimitedBody|readBody|decodeBody|parseJson|expectKind|body|decodePatchBody|readPatch|parseMediaType|attachDuplicateInfo|wellFormed|readKey|readString|readValue|setMember)$/],
  ['type checks, unknown fields', /^(typeCheck|checkTypes|checkStruct|check|fieldValidate|findUnknownFields|pruneUnknownFields|fieldValidationResult|canonicalizeBody|walkTyped|resolveTyped|ext|strictDecodingErrors|collect)$/],
  ['patch (merge / strategic)', /^(mergePatch|applyMergePatch|strategicMergePatch|applyStrategic|strategic.*|merge.*Patch.*|jsonPatch.*|removeDirectives|mergeMap|mergeSliceHandler|mergeSlice.*)$/],
  ['defaulting, PrepareForCreate/Update', /^(default|defaults|applyDefaults|defaultObject|setDefaults.*|canonicalizeQuantities|default[A-Z].*|(.*\.)?prepareFor(Create|Update)|dropDisabledFields)$/],
  ['validation', /^(validate.*|dedupe|walk|policyOf|required|checkRequired|withRequired|[a-z]+Warnings)$/],
  ['admission', /^(mutatingAdmission|validatingAdmission|admit.*|dispatch\d*)$/],
  ['managedFields / apply', /^(updateManagedFields|serverSideApply|applyPatch|applyCore|trackUpdate|encodeInto|encodeManagedFields|decodeManagedFields|setManagedFields|withoutManagedFields|viewWithoutManagedFields|objectTypeFor|compare3|cmpWalk|cmpHandle|doUpdate|update|apply|prune|merge|mergeHandle|removeItems|toFieldSet|tfs|fromFieldsV1|serializePE|deserializePE|goJSONString|goJSON|parseIdentifier|managerIdentifier|ensureNamedFieldsAreMembers|union|difference|intersection|insert|insertMember|search|emit|reconcile.*|sortKeyFields|listItemPE|keepRHS|valuesEqual|dropIntroducedNulls|first|owned|freshTop|amHandle|amWalk|amLeaf|decodeFieldsV1|encodeFieldsV1|toFieldsV1|attach|childType|recursiveDifference|kept|capUpdateManagers)$/],
  ['deep copies (clone)', /^(clone|copyValue|copyJson|stamp|frozenCopy|setOwn\d*|handedOver|ownValue|requestedCopy|deepFreeze)$/],
  ['storage (commit, index, history)', /^(commit|commitOne|planWrite|write|put|get|set|exclusive|normalizeLayout|stored|view|present|toStorageVersion|toRequestVersion|stampedMeta|durable|resourceOf|add|sameIgnoringRV|sameMetaIgnoringRV)$/],
  ['watch fan-out, controllers', /^(deliver|send|scheduleBookmark|onEvents|ensure|rootCaConfigMap|withResourceVersion)$/],
  ['encode (response body)', /^(toFetchResponse|EngineResponse|respond|respondStatus|respondError|encodeJson|encodeYaml|encodeCbor|encodeProtobufObject|bodyResponse|jsonBytesResponse|objectJsonBytes|itemBytes|headerValue|warningHeader|objectJsonText|objectJsonBody|objectJsonBytes|listItem|goJsonText|compactJson|respondWritten|handedOverOrSerialized)$/],
];

/** The steps no function of STEPS names: engine code outside them, the collector, and what is not the engine. */
export const OTHER = 'other engine code';
export const GC = 'garbage collection';
export const HARNESS = 'harness (Request/Response objects, streams, promise glue)';

export async function profileSteps(
  run: (i: number) => Promise<unknown>,
  n: number,
): Promise<{ usPerOp: number; steps: Map<string, number>; frames: Map<string, number> }> {
  for (let i = 0; i < Math.min(200, n); i++) await run(i); // warm-up
  // wall time without the profiler (its sampling slows the code it watches), then the shares under it
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run(i + 500_000);
    times.push(performance.now() - t);
  }
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  for (let i = 0; i < n; i++) await run(i + 1_000_000);
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
  session.disconnect();
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const parent = new Map<number, number>();
  for (const x of profile.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const steps = new Map<string, number>();
  const frames = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    let id: number | undefined = profile.samples[i];
    const leaf = byId.get(id)!.callFrame.functionName;
    if (leaf === '(idle)' || leaf === '(program)' || leaf === '(root)') continue;
    // the profiler's own start and stop (the session's post): a few samples whose deltas span them
    let inspector = false;
    for (let x: number | undefined = id; x !== undefined && !inspector; x = parent.get(x)) inspector = byId.get(x)!.callFrame.url === 'node:inspector';
    if (inspector) continue;
    total += dt;
    let step = leaf === '(garbage collector)' ? GC : '';
    let firstOurs = '';
    while (!step && id !== undefined) {
      const f = byId.get(id)!.callFrame;
      if (f.url.includes('bench-bundled') || (other !== undefined && f.url.endsWith(basename(other)))) {
        // an anonymous function is named by its line in the bundle, to be found there
        // the bench's own caller (bench/engine-entry.ts, bench/bundled.ts): what reaches it is the harness's
        if (f.functionName === 'benchServeCall' || f.functionName === 'benchTextCall') break;
        firstOurs ||= f.functionName || `(anonymous, bundle line ${f.lineNumber + 1})`;
        for (const [name, re] of STEPS) if (re.test(f.functionName)) { step = name; break; }
      }
      id = parent.get(id);
    }
    step ||= firstOurs ? OTHER : HARNESS;
    steps.set(step, (steps.get(step) ?? 0) + dt);
    // the harness's samples by their innermost function (and its script), so that -v shows what they are
    const leafFrame = byId.get(profile.samples[i])!.callFrame;
    const at = firstOurs || `${leaf || '(anonymous)'} (${basename(leafFrame.url) || 'native'})`;
    frames.set(`${step} <- ${at}`, (frames.get(`${step} <- ${at}`) ?? 0) + dt);
  }
  const usPerOp = median(times) * 1000;
  const scale = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [k, (v / total) * usPerOp]));
  return { usPerOp, steps: scale(steps), frames: scale(frames) };
}

const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { app: 'bench' } } });
const deployment = (image: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bench', labels: { app: 'bench' } },
  spec: { replicas: 3, selector: { matchLabels: { app: 'bench' } }, template: { metadata: { labels: { app: 'bench' } }, spec: { containers: ['web', 'sidecar', 'metrics'].map((name, i) => ({ name, image: i === 0 ? image : `registry.example.com/${name}:1.0`, ports: [{ containerPort: 8080 + i, name: `p-${name}` }], env: [{ name: 'MODE', value: name }], resources: { requests: { cpu: '100m', memory: '64Mi' } } })) } } },
});
const DEP = '/apis/apps/v1/namespaces/default/deployments/bench';
const cm = (name: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { v } });

export const WORKS: Record<string, { label: string; n: number; setup?: (call: ReturnType<typeof textCaller>, n: number) => Promise<void>; run: (call: ReturnType<typeof textCaller>, i: number) => Promise<unknown> }> = {
  create: { label: 'create Namespace', n: 1500, run: (call, i) => call('POST', '/api/v1/namespaces', ns(`c-${i}`)) },
  get: { label: 'get Namespace', n: 3000, setup: async (call) => void (await call('POST', '/api/v1/namespaces', ns('g'))), run: (call) => call('GET', '/api/v1/namespaces/g') },
  update: { label: 'update Namespace (put, label change)', n: 1500, setup: async (call) => void (await call('POST', '/api/v1/namespaces', ns('u'))), run: async (call, i) => { const cur = JSON.parse(await call('GET', '/api/v1/namespaces/u')); cur.metadata.labels.round = String(i); await call('PUT', '/api/v1/namespaces/u', cur); } },
  patch: { label: 'merge patch Namespace (label change)', n: 1500, setup: async (call) => void (await call('POST', '/api/v1/namespaces', ns('p'))), run: (call, i) => call('PATCH', '/api/v1/namespaces/p', { metadata: { labels: { p: String(i) } } }, 'application/merge-patch+json') },
  apply: { label: 'apply Deployment (3 containers), no-op', n: 1000, setup: async (call) => void (await call('PATCH', `${DEP}?fieldManager=owner`, deployment('nginx:1'), 'application/apply-patch+yaml')), run: (call) => call('PATCH', `${DEP}?fieldManager=owner`, deployment('nginx:1'), 'application/apply-patch+yaml') },
  'apply-change': { label: 'apply Deployment (3 containers), value change', n: 1000, setup: async (call) => void (await call('PATCH', `${DEP}?fieldManager=owner`, deployment('nginx:1'), 'application/apply-patch+yaml')), run: (call, i) => call('PATCH', `${DEP}?fieldManager=owner`, deployment(`nginx:${2 + (i % 2)}`), 'application/apply-patch+yaml') },
  'apply-cm': { label: 'apply ConfigMap, label change', n: 1500, setup: async (call) => void (await call('PATCH', '/api/v1/namespaces/default/configmaps/bench?fieldManager=owner', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench', labels: { round: 'a' } }, data: { k: 'v' } }, 'application/apply-patch+yaml')), run: (call, i) => call('PATCH', '/api/v1/namespaces/default/configmaps/bench?fieldManager=owner', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench', labels: { round: String(i % 2) } }, data: { k: 'v' } }, 'application/apply-patch+yaml') },
  'create-cm': { label: 'create ConfigMap', n: 1500, run: (call, i) => call('POST', '/api/v1/namespaces/default/configmaps', cm(`c-${i}`, String(i))) },
  'get-cm': { label: 'get ConfigMap', n: 3000, setup: async (call) => void (await call('POST', '/api/v1/namespaces/default/configmaps', cm('g', '1'))), run: (call) => call('GET', '/api/v1/namespaces/default/configmaps/g') },
  'update-cm': { label: 'update ConfigMap (put, value change)', n: 1500, setup: async (call) => void (await call('POST', '/api/v1/namespaces/default/configmaps', cm('u', '1'))), run: async (call, i) => { const cur = JSON.parse(await call('GET', '/api/v1/namespaces/default/configmaps/u')); cur.data.v = String(i); await call('PUT', '/api/v1/namespaces/default/configmaps/u', cur); } },
  smp: { label: 'strategic merge patch Deployment (image)', n: 1000, setup: async (call) => void (await call('PATCH', `${DEP}?fieldManager=owner`, deployment('nginx:1'), 'application/apply-patch+yaml')), run: (call, i) => call('PATCH', DEP, { spec: { template: { spec: { containers: [{ name: 'web', image: `nginx:${4 + (i % 2)}` }] } } } }, 'application/strategic-merge-patch+json') },
};

export async function stepsFor(work: string, n?: number) {
  const w = WORKS[work];
  // no controller manager: its informers would add their own work to the loop (the namespace's root-CA
  // ConfigMap is still published on create, as every cluster does)
  const api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'test', controllers: [] });
  await api.ready;
  const call = viaServe ? serveCaller(api) : textCaller(api);
  await w.setup?.(call, n ?? w.n);
  const out = await profileSteps((i) => w.run(call, i), n ?? w.n);
  await api.close();
  return out;
}

export type StepsResult = Awaited<ReturnType<typeof profileSteps>>;

/** Several profiles of one request kind as one: each figure the median of the runs'. */
export function medianResult(runs: StepsResult[]): StepsResult {
  const med = (pick: (x: StepsResult) => Map<string, number>) => {
    const keys = new Set(runs.flatMap((x) => [...pick(x).keys()]));
    return new Map([...keys].map((key) => [key, median(runs.map((x) => pick(x).get(key) ?? 0))]));
  };
  return runs.length === 1 ? runs[0] : { usPerOp: median(runs.map((x) => x.usPerOp)), steps: med((x) => x.steps), frames: med((x) => x.frames) };
}

/** Every step of the request kinds' profiles, in the order a request passes them: µs per request and share. */
export function stepsMarkdown(results: [string, StepsResult][]): string {
  const rows = [...STEPS.map(([name]) => name), OTHER, GC, HARNESS];
  const cell = (r: StepsResult, step: string) => {
    const v = r.steps.get(step) ?? 0;
    return `${v.toFixed(1)} (${Math.round((v / r.usPerOp) * 100)}%)`;
  };
  return [
    `| step | ${results.map(([w]) => WORKS[w].label).join(' | ')} |`,
    `|---|${results.map(() => '---:').join('|')}|`,
    ...rows.map((step) => `| ${step} | ${results.map(([, r]) => cell(r, step)).join(' | ')} |`),
    `| **whole request (p50)** | ${results.map(([, r]) => `**${r.usPerOp.toFixed(0)}**`).join(' | ')} |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const works = process.argv.slice(2).filter((a, i, all) => !a.startsWith('-') && all[i - 1] !== '--engine' && all[i - 1] !== '--rounds');
  console.log(`through ${viaServe ? 'serve() (EngineRequest in, EngineResponse read as text)' : 'handle() (fetch Request in, Response read as text)'}`);
  const verbose = process.argv.includes('-v');
  const results: [string, StepsResult][] = [];
  // --rounds N: each request kind profiled N times (a fresh engine each), every figure the median of the N
  const rounds = process.argv.includes('--rounds') ? Number(process.argv[process.argv.indexOf('--rounds') + 1]) : 1;
  for (const work of works.length ? works : Object.keys(WORKS)) {
    const runs: StepsResult[] = [];
    for (let k = 0; k < rounds; k++) runs.push(await stepsFor(work));
    const r = medianResult(runs);
    results.push([work, r]);
    console.log(`\n${WORKS[work].label}: ${r.usPerOp.toFixed(0)} µs per request (p50)`);
    for (const [k, v] of [...r.steps].sort((a, b) => b[1] - a[1])) console.log(`  ${v.toFixed(1).padStart(7)} µs  ${k}`);
    if (verbose) for (const [k, v] of [...r.frames].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`      ${v.toFixed(1).padStart(7)} µs  ${k}`);
  }
  // --md: one markdown table, a column per request kind, a row per step in the order a request passes them
  if (process.argv.includes('--md')) console.log(`\n${stepsMarkdown(results)}`);
  process.exit(0);
}
