// POST /x-playground/cel: the playground's CEL evaluator, served by the engine so that the UI reaches it over
// HTTP like everything else (STYLE.md layering 4). Not part of the Kubernetes API: it lives under a prefix
// the real server does not have. Request: {"expression", "variables": {name: JSON value}, "version"}.
// Response: {"value", "type", "cost", "estimatedCost": {"min","max"}, "limits"} or {"error": {...}}.

import { createCelEnv, isCompileError, isRuntimeError, PER_CALL_LIMIT, PER_EXPRESSION_ESTIMATE_LIMIT, type CelEnv } from '../cel/env.js';
import { fromJson, toJson } from '../cel/convert.js';
import { CEL_VERSIONS, T, type CelType, type CelVersion } from '../cel/types.js';
import type { CelValue } from '../cel/values.js';
import { badRequest } from '../errors.js';
import { isPlainObject } from '../object.js';
import { LruCache } from '../cel/lru.js';

export const PLAYGROUND_CEL_PATH = '/x-playground/cel';

/** Environments by version and variable names, bounded: every request may name other variables. */
const envs = new LruCache<string, CelEnv>(64);

function envFor(version: CelVersion, names: string[]): CelEnv {
  const key = `${version}|${[...names].sort().join(',')}`;
  let env = envs.get(key);
  if (!env) {
    const variables: Record<string, CelType> = {};
    for (const n of names) variables[n] = T.dyn;
    env = createCelEnv({ version, variables });
    envs.set(key, env);
  }
  return env;
}

export function evaluatePlaygroundCel(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body) || typeof body.expression !== 'string') throw badRequest('expected a JSON object with a string "expression"');
  const version = (typeof body.version === 'string' ? body.version : '1.33') as CelVersion;
  if (!CEL_VERSIONS.includes(version)) throw badRequest(`version: Unsupported value: "${version}": supported values: ${CEL_VERSIONS.map((v) => `"${v}"`).join(', ')}`);
  const vars = isPlainObject(body.variables) ? body.variables : {};
  const env = envFor(version, Object.keys(vars));
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
  for (const [k, v] of Object.entries(vars)) activation[k] = fromJson(v);
  const r = program.evaluate(activation);
  if (isRuntimeError(r)) {
    return { error: { kind: 'runtime', message: r.message, formatted: r.formatted, position: r.position, costLimitExceeded: !!r.costLimitExceeded }, cost: r.cost, estimatedCost, limits };
  }
  return { value: toJson(r.value), type: r.type, cost: r.cost, estimatedCost, limits };
}
