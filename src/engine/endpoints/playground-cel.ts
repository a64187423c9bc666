// POST /x-playground/cel: the playground's CEL evaluator, served by the engine so that the UI reaches it over
// HTTP like everything else (STYLE.md layering 4). Not part of the Kubernetes API: it lives under a prefix
// the real server does not have. Request: {"expression", "variables": {name: JSON value}, "version",
// "schemas": {name: OpenAPI v3 schema}}; a variable with a schema is declared with the CEL type a CRD rule
// would give a field of that schema (so the static cost estimate is a CRD's), the others are dyn.
// Response: {"value", "type", "cost", "estimatedCost": {"min","max"}, "limits"} or {"error": {...}}.

import { createCelEnv, isCompileError, isRuntimeError, PER_CALL_LIMIT, PER_EXPRESSION_ESTIMATE_LIMIT, type CelEnv } from '../cel/env.js';
import { fromJson, toJson } from '../cel/convert.js';
import { CEL_VERSIONS, T, type CelType, type CelVersion } from '../cel/types.js';
import type { CelValue } from '../cel/values.js';
import { badRequest } from '../errors.js';
import { isPlainObject } from '../object.js';
import { LruCache } from '../cel/lru.js';
import { schemaToCelType } from '../cel/schema-types.js';

export const PLAYGROUND_CEL_PATH = '/x-playground/cel';

/** Environments by version and variable names, bounded: every request may name other variables. */
const envs = new LruCache<string, CelEnv>(64);

function envFor(version: CelVersion, names: string[], schemas: Record<string, unknown>): { env: CelEnv; types: Record<string, CelType> } {
  const typed = names.filter((n) => schemas[n] !== undefined).sort();
  const key = `${version}|${[...names].sort().join(',')}|${JSON.stringify(typed.map((n) => schemas[n]))}`;
  const variables: Record<string, CelType> = {};
  for (const n of names) {
    const s = schemas[n];
    variables[n] = (s !== undefined ? schemaToCelType(s as never, {}, { name: n }) : undefined) ?? T.dyn;
  }
  let env = envs.get(key);
  if (!env) {
    env = createCelEnv({ version, variables });
    envs.set(key, env);
  }
  return { env, types: variables };
}

export function evaluatePlaygroundCel(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body) || typeof body.expression !== 'string') throw badRequest('expected a JSON object with a string "expression"');
  const version = (typeof body.version === 'string' ? body.version : '1.33') as CelVersion;
  if (!CEL_VERSIONS.includes(version)) throw badRequest(`version: Unsupported value: "${version}": supported values: ${CEL_VERSIONS.map((v) => `"${v}"`).join(', ')}`);
  const vars = isPlainObject(body.variables) ? body.variables : {};
  const schemas: Record<string, unknown> = {};
  if (body.schemas !== undefined) {
    if (!isPlainObject(body.schemas)) throw badRequest('schemas: expected an object of OpenAPI v3 schemas by variable name');
    for (const [k, v] of Object.entries(body.schemas)) {
      if (!isPlainObject(v)) throw badRequest(`schemas.${k}: expected an OpenAPI v3 schema object`);
      if (k in vars) schemas[k] = v;
    }
  }
  const { env, types } = envFor(version, Object.keys(vars), schemas);
  const limits = { runtime: PER_CALL_LIMIT, estimate: PER_EXPRESSION_ESTIMATE_LIMIT };
  const program = env.compile(body.expression);
  if (isCompileError(program)) {
    return { error: { kind: 'compile', message: program.message, formatted: program.formatted, position: program.position, issues: program.issues }, limits };
  }
  let estimatedCost: { min: number; max: number } | undefined;
  try {
    estimatedCost = program.estimateCost();
  } catch {
    estimatedCost = undefined;
  }
  const activation: Record<string, CelValue> = {};
  for (const [k, v] of Object.entries(vars)) activation[k] = fromJson(v, k in schemas ? types[k] : undefined);
  const r = program.evaluate(activation);
  if (isRuntimeError(r)) {
    return { error: { kind: 'runtime', message: r.message, formatted: r.formatted, position: r.position, costLimitExceeded: !!r.costLimitExceeded }, cost: r.cost, estimatedCost, limits };
  }
  return { value: toJson(r.value), type: r.type, cost: r.cost, estimatedCost, limits };
}
