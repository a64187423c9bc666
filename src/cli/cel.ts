// Evaluates a CEL expression in the Kubernetes v1.33 CEL environment of this project.
//
//   npm run --silent cel -- --expr '<expression>' [--vars <file.yaml|json>] [--version 1.33]
//   npm run --silent cel -- --batch [--version 1.33] < lines.jsonl     (each line: {"expr": ..., "vars": {...}})
//
// Prints one JSON object per expression:
//   {"value": <value>, "type": "<runtime type>", "cost": <runtime cost>}
//   {"error": {"kind": "compile"|"runtime", "message": "...", "position": {"line", "column", "offset", "length"},
//              "formatted": "ERROR: <input>:1:6: ..."}}
//
// Variables from YAML/JSON are declared dyn; integral numbers become int, other numbers double (YAML `1.0`
// is indistinguishable from `1` after parsing and becomes int).
//
// Values JSON cannot hold are printed as:
//   bytes                 -> base64 string (type "bytes")
//   int/uint beyond 2^53  -> decimal string (type "int"/"uint")
//   timestamp             -> RFC 3339 string, e.g. "2024-01-02T03:04:05.5Z" (type "google.protobuf.Timestamp")
//   duration              -> seconds with an `s` suffix, e.g. "1.5s" (type "google.protobuf.Duration")
//   NaN / +Infinity / -Infinity -> "NaN" / "+Inf" / "-Inf" (type "double")
//   type values           -> the type name, e.g. "int" (type "type")
//   optional values       -> {"optional": <value>} or {"optional": null} for none (type "optional_type")
//   map keys              -> strings (int/uint/bool keys printed in decimal/true/false)

import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { createCelEnv, isCompileError, isRuntimeError, type CelEnv } from '../engine/cel/env.js';
import { fromJson, toJson } from '../engine/cel/convert.js';
import type { CelType, CelVersion } from '../engine/cel/types.js';
import { CEL_VERSIONS, T } from '../engine/cel/types.js';
import type { CelValue } from '../engine/cel/values.js';
import { MAX_NESTING_DEPTH, nestingDepth } from '../engine/codec/budgets.js';
import { LruCache } from '../engine/cel/lru.js';

export interface CliOutput {
  value?: unknown;
  type?: string;
  cost?: number;
  error?: { kind: 'compile' | 'runtime' | 'usage'; message: string; position?: { line: number; column: number; offset: number; length: number }; formatted?: string };
}

/** Environments by version and variable names (bounded: a batch may name many different variables). */
const envCache = new LruCache<string, CelEnv>(64);

function envFor(version: CelVersion, names: string[]): CelEnv {
  const key = `${version}|${names.sort().join(',')}`;
  let env = envCache.get(key);
  if (!env) {
    const variables: Record<string, CelType> = {};
    for (const n of names) variables[n] = T.dyn;
    env = createCelEnv({ version, variables });
    envCache.set(key, env);
  }
  return env;
}

/** Evaluates one expression with JSON variables (declared dyn). */
export function evaluateExpression(expr: string, vars: Record<string, unknown> = {}, version: CelVersion = '1.33'): CliOutput {
  // variables are held to the nesting budget of request bodies, so converting them cannot overflow the stack
  for (const [name, v] of Object.entries(vars)) {
    if (nestingDepth(v, MAX_NESTING_DEPTH) > MAX_NESTING_DEPTH) {
      return usage(`variable ${name} nests deeper than ${MAX_NESTING_DEPTH} levels`);
    }
  }
  try {
    return evaluate(expr, vars, version);
  } catch (e) {
    // the engine bounds every recursion; should a stack still run out, it is an error line, not a crash
    if (e instanceof RangeError) return { error: { kind: 'runtime', message: e.message } };
    throw e;
  }
}

function evaluate(expr: string, vars: Record<string, unknown>, version: CelVersion): CliOutput {
  const env = envFor(version, Object.keys(vars));
  const program = env.compile(expr);
  if (isCompileError(program)) {
    return { error: { kind: 'compile', message: program.message, position: program.position, formatted: program.formatted } };
  }
  const activation: Record<string, CelValue> = {};
  for (const [k, v] of Object.entries(vars)) activation[k] = fromJson(v);
  const r = program.evaluate(activation);
  if (isRuntimeError(r)) return { error: { kind: 'runtime', message: r.message, position: r.position, formatted: r.formatted } };
  return { value: toJson(r.value), type: r.type, cost: r.cost };
}

function parseArgs(argv: string[]): { expr?: string; vars?: string; version: string; batch: boolean; error?: string } {
  const out = { version: '1.33', batch: false } as { expr?: string; vars?: string; version: string; batch: boolean; error?: string };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = argv[++i];
      if (v === undefined) out.error = `missing value for ${a}`;
      return v;
    };
    if (a === '--expr' || a === '-e') out.expr = val();
    else if (a.startsWith('--expr=')) out.expr = a.slice(7);
    else if (a === '--vars') out.vars = val();
    else if (a.startsWith('--vars=')) out.vars = a.slice(7);
    else if (a === '--version') out.version = val();
    else if (a.startsWith('--version=')) out.version = a.slice(10);
    else if (a === '--batch') out.batch = true;
    else out.error = `unknown argument: ${a}`;
  }
  return out;
}

function usage(message: string): CliOutput {
  return { error: { kind: 'usage', message } };
}

function checkVersion(v: string): v is CelVersion {
  return (CEL_VERSIONS as string[]).includes(v);
}

/** Runs the CLI; returns the output lines and the exit code. */
export function runCli(argv: string[], stdin: () => string): { lines: string[]; code: number } {
  const args = parseArgs(argv);
  if (args.error) return { lines: [JSON.stringify(usage(args.error))], code: 2 };
  if (!checkVersion(args.version)) return { lines: [JSON.stringify(usage(`unsupported version ${args.version} (use ${CEL_VERSIONS.join(', ')})`))], code: 2 };
  const version = args.version;
  if (args.batch) {
    const lines: string[] = [];
    for (const line of stdin().split('\n')) {
      if (!line.trim()) continue;
      let input: { expr?: unknown; vars?: unknown; version?: unknown };
      try {
        input = JSON.parse(line);
      } catch (e) {
        lines.push(JSON.stringify(usage(`invalid JSON line: ${(e as Error).message}`)));
        continue;
      }
      if (typeof input.expr !== 'string') {
        lines.push(JSON.stringify(usage('each line needs a string "expr"')));
        continue;
      }
      const v = typeof input.version === 'string' ? input.version : version;
      if (!checkVersion(v)) {
        lines.push(JSON.stringify(usage(`unsupported version ${v}`)));
        continue;
      }
      const vars = input.vars && typeof input.vars === 'object' ? (input.vars as Record<string, unknown>) : {};
      lines.push(JSON.stringify(evaluateExpression(input.expr, vars, v)));
    }
    return { lines, code: 0 };
  }
  if (args.expr === undefined) return { lines: [JSON.stringify(usage('--expr is required (or --batch)'))], code: 2 };
  let vars: Record<string, unknown> = {};
  if (args.vars) {
    try {
      const text = readFileSync(args.vars, 'utf8');
      const doc = args.vars.endsWith('.json') ? JSON.parse(text) : load(text);
      if (doc && typeof doc === 'object' && !Array.isArray(doc)) vars = doc as Record<string, unknown>;
      else if (doc != null) return { lines: [JSON.stringify(usage('--vars must hold a mapping of variable names to values'))], code: 2 };
    } catch (e) {
      return { lines: [JSON.stringify(usage(`cannot read --vars: ${(e as Error).message}`))], code: 2 };
    }
  }
  const out = evaluateExpression(args.expr, vars, version);
  return { lines: [JSON.stringify(out)], code: out.error ? 1 : 0 };
}

const isMain = typeof process !== 'undefined' && process.argv[1] && /cli[\\/]cel\.ts$/.test(process.argv[1]);
if (isMain) {
  const { lines, code } = runCli(process.argv.slice(2), () => readFileSync(0, 'utf8'));
  process.stdout.write(lines.join('\n') + '\n');
  process.exitCode = code;
}
