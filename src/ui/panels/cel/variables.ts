// The CEL evaluator's variables: one YAML mapping of variable name to value. Pure.
import { load } from 'js-yaml';
import { expansionProblem } from '../../yaml-budget.js';

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Parses the variables YAML: a mapping of variable name to value ('' = no variables). */
export function parseVariables(text: string): { vars: Record<string, unknown> } | { error: string } {
  // Only blank lines and comments: no variables (js-yaml 5 rejects an empty document).
  if (text.split('\n').every((l) => /^\s*(#.*)?$/.test(l))) return { vars: {} };
  let v: unknown;
  try {
    v = load(text);
  } catch (e) {
    return { error: `variables: ${errorText(e).split('\n')[0]}` };
  }
  if (v === null || v === undefined) return { vars: {} };
  const tooLarge = expansionProblem(v);
  if (tooLarge) return { error: `variables: ${tooLarge}` };
  if (typeof v !== 'object' || Array.isArray(v)) return { error: 'variables: expected a mapping of variable names to values, e.g. "self: {replicas: 3}"' };
  return { vars: v as Record<string, unknown> };
}


/**
 * Parses the optional schema YAML of self and oldSelf (an OpenAPI v3 schema, as a CRD's field has): '' or
 * comments only = no schema (the variables stay untyped).
 */
export function parseSchema(text: string): { schema?: Record<string, unknown> } | { error: string } {
  if (text.split('\n').every((l) => /^\s*(#.*)?$/.test(l))) return {};
  let v: unknown;
  try {
    v = load(text);
  } catch (e) {
    return { error: `schema: ${errorText(e).split('\n')[0]}` };
  }
  if (v === null || v === undefined) return {};
  const tooLarge = expansionProblem(v);
  if (tooLarge) return { error: `schema: ${tooLarge}` };
  if (typeof v !== 'object' || Array.isArray(v)) return { error: 'schema: expected an OpenAPI v3 schema, e.g. "type: object"' };
  return { schema: v as Record<string, unknown> };
}
