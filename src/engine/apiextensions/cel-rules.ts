// x-kubernetes-validations of custom resources [K8S apiextensions-apiserver/pkg/apiserver/schema/cel]:
// rules compiled per schema node with `self` (and `oldSelf`, optional when optionalOldSelf) typed from the
// node's schema; evaluated top-down on create and update with a per-object runtime budget (10,000,000) and
// a per-expression limit (1,000,000). Transition rules (using oldSelf) run only where the old value
// correlates (object properties, granular/atomic maps, list-type map items by key), unless optionalOldSelf.

import { fieldErr, GoRepr, type FieldError } from '../errors.js';
import { isPlainObject } from '../object.js';
import type { Schema } from '../schema/types.js';
import { ext } from '../schema/types.js';
import {
  createCelEnv, fromJson, isCompileError, isRuntimeError, schemaToCelType, T, PER_CALL_LIMIT,
  type CelEnv, type CelProgram, type CelType, type CelValue,
} from '../cel/index.js';
import { CelOptional } from '../cel/values.js';
import { MAX_REQUEST_SIZE_BYTES, schemaMinSerializedSize } from '../cel/schema-types.js';

/** Runtime cost budget of all rules for one object (celconfig.RuntimeCELCostBudget). */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** Static cost limit per expression (StaticEstimatedCostLimit). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** Static cost limit for all rules of a schema (StaticEstimatedCRDCostLimit). */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
/** Largest message a messageExpression may produce (MaxEvaluatedMessageExpressionSizeBytes). */
const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;

export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

interface CompiledRule {
  rule: ValidationRule;
  program?: CelProgram;
  /** Compile-time error detail ("compilation failed: ..."), as cel.Compile reports it. */
  error?: string;
  /** The error is the "must evaluate to a bool" kind (reported as Invalid, not Required). */
  usesOldSelf: boolean;
  messageProgram?: CelProgram;
  messageError?: string;
  /** Normalized fieldPath (field.Path form, without leading dot). */
  fieldPath?: string;
  /** Static cost estimate (max) of the rule and its messageExpression. */
  cost: number;
  messageCost: number;
}

export interface RuleNode {
  schema: Schema;
  /** CEL type of `self` here (undefined: dyn), computed once. */
  celType?: CelType;
  rules: CompiledRule[];
  properties?: Record<string, RuleNode>;
  additionalProperties?: RuleNode;
  items?: RuleNode;
  allOf?: RuleNode[];
}

function usesIdent(ast: unknown, name: string): boolean {
  if (!ast || typeof ast !== 'object') return false;
  if (Array.isArray(ast)) return ast.some((x) => usesIdent(x, name));
  const o = ast as Record<string, unknown>;
  if (o.kind === 'ident' && o.name === name) return true;
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v && typeof v === 'object' && usesIdent(v, name)) return true;
  }
  return false;
}

function hasRules(s: Schema | undefined): boolean {
  if (!s) return false;
  if ((s['x-kubernetes-validations'] ?? []).length) return true;
  if (hasRules(s.items)) return true;
  if (s.additionalProperties && typeof s.additionalProperties === 'object' && hasRules(s.additionalProperties)) return true;
  for (const p of Object.values(s.properties ?? {})) if (hasRules(p)) return true;
  for (const a of s.allOf ?? []) if (hasRules(a)) return true;
  return false;
}

function envFor(self: CelType, optionalOld: boolean): CelEnv {
  return createCelEnv({ variables: { self, oldSelf: optionalOld ? T.optional(self) : self } });
}

/** Normalizes a rule's fieldPath (`.spec.x`, `.a['b.c']`) to a field.Path string (ValidFieldPath), or undefined if invalid. */
export function normalizeFieldPath(fp: string, s: Schema): string | undefined {
  // tokens: '.', '[', ']', quoted strings, names
  const toks: string[] = [];
  for (let i = 0; i < fp.length; ) {
    const ch = fp[i];
    if (ch === '.' || ch === '[' || ch === ']') {
      toks.push(ch);
      i++;
    } else if (ch === "'") {
      let j = i + 1;
      while (j < fp.length && !(fp[j] === "'" && fp[j - 1] !== '\\')) j++;
      if (j >= fp.length) return undefined;
      toks.push(fp.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < fp.length && !'.[]'.includes(fp[j])) j++;
      toks.push(fp.slice(i, j));
      i = j;
    }
  }
  let cur: Schema | undefined = s;
  let out = '';
  const step = (name: string): boolean => {
    if (!cur) return false;
    if (cur.properties) {
      if (!(name in cur.properties)) return false;
      cur = cur.properties[name];
      out = out ? `${out}.${name}` : name;
      return true;
    }
    if (cur.additionalProperties && typeof cur.additionalProperties === 'object') {
      cur = cur.additionalProperties;
      out = `${out}[${name}]`;
      return true;
    }
    return false;
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t === '.') {
      const name = toks[++i];
      if (name === undefined || !step(name)) return undefined;
    } else if (t === '[') {
      const q = toks[++i];
      if (!q || q.length < 2 || q[0] !== "'" || q[q.length - 1] !== "'") return undefined;
      if (!step(q.slice(1, -1).replace(/\\(.)/g, '$1'))) return undefined;
      if (toks[++i] !== ']') return undefined;
    } else return undefined;
  }
  return out || undefined;
}

function compileRules(s: Schema, resourceRoot: boolean): CompiledRule[] {
  const rules = (s['x-kubernetes-validations'] ?? []) as ValidationRule[];
  if (!rules.length) return [];
  const type = schemaToCelType(s, {}, { resourceRoot, name: 'selfType' }) ?? T.dyn;
  const env = envFor(type, false);
  const optEnv = envFor(type, true);
  return rules.map((r) => {
    const c: CompiledRule = { rule: r, usesOldSelf: false, cost: 0, messageCost: 0 };
    if (!r.rule || !r.rule.trim()) return c;
    const p = (r.optionalOldSelf ? optEnv : env).compile(r.rule);
    if (isCompileError(p)) {
      c.error = `compilation failed: ${p.formatted}`;
      return c;
    }
    if (p.resultType.kind !== 'bool' && p.resultType.kind !== 'dyn') {
      c.error = 'cel expression must evaluate to a bool';
      return c;
    }
    c.program = p;
    c.usesOldSelf = usesIdent(p.ast, 'oldSelf');
    c.cost = p.estimateCost().max;
    if (r.messageExpression) {
      const m = env.compile(r.messageExpression);
      if (isCompileError(m)) c.messageError = `messageExpression compilation failed: ${m.formatted}`;
      else if (m.resultType.kind !== 'string' && m.resultType.kind !== 'dyn') c.messageError = 'messageExpression must evaluate to a string';
      else {
        c.messageProgram = m;
        c.messageCost = m.estimateCost().max;
      }
    }
    if (r.fieldPath) c.fieldPath = normalizeFieldPath(r.fieldPath, s);
    return c;
  });
}

/** Compiles every rule of a structural schema into a tree (undefined when the schema has no rules). */
export function compileRuleTree(s: Schema | undefined, resourceRoot = true): RuleNode | undefined {
  if (!s || !hasRules(s)) return undefined;
  const root = resourceRoot || !!ext<boolean>(s, 'embedded-resource');
  const node: RuleNode = { schema: s, rules: compileRules(s, root) };
  if (node.rules.length) node.celType = schemaToCelType(s, {}, { resourceRoot: root, name: 'selfType' });
  if (s.properties) {
    for (const [k, v] of Object.entries(s.properties)) {
      const sub = compileRuleTree(v, false);
      if (sub) (node.properties ??= {})[k] = sub;
    }
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object') node.additionalProperties = compileRuleTree(s.additionalProperties, false);
  if (s.items) node.items = compileRuleTree(s.items, false);
  if (s.allOf) {
    const subs = s.allOf.map((a) => compileRuleTree(a, false)).filter((x): x is RuleNode => !!x);
    if (subs.length) node.allOf = subs;
  }
  return node;
}

function schemaTypeName(s: Schema): string {
  if (s.type) return s.type;
  return '';
}

function ruleErrorString(r: ValidationRule): string {
  return r.message ? r.message.trim() : r.rule.trim();
}
function ruleMessageOrDefault(r: ValidationRule): string {
  return r.message ? r.message.trim() : `failed rule: ${ruleErrorString(r)}`;
}

function errorForReason(field: string, value: unknown, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldErr.forbidden(field, detail);
    case 'FieldValueRequired':
      return fieldErr.required(field, detail);
    case 'FieldValueDuplicate':
      return fieldErr.duplicate(field, value);
    default:
      return fieldErr.invalid(field, value, detail);
  }
}

interface State {
  budget: number;
  errs: FieldError[];
  /** Set when validation must stop (budget exhausted). */
  stop: boolean;
}

const joinField = (base: string, name: string) => (base ? `${base}.${name}` : name);

function validateNode(node: RuleNode, path: string, obj: unknown, old: unknown, hasOld: boolean, st: State, resourceRoot: boolean): void {
  if (st.stop || obj === null || obj === undefined) return;
  evalRules(node, path, obj, old, hasOld, st, resourceRoot);
  if (st.stop) return;
  for (const a of node.allOf ?? []) {
    validateNode(a, path, obj, old, hasOld, st, false);
    if (st.stop) return;
  }
  if (Array.isArray(obj)) {
    if (!node.items) return;
    const s = node.schema;
    const keys = ext<string>(s, 'list-type') === 'map' ? ext<string[]>(s, 'list-map-keys') ?? [] : undefined;
    const oldArr = hasOld && Array.isArray(old) ? old : undefined;
    obj.forEach((item, i) => {
      if (st.stop) return;
      let o: unknown;
      let ho = false;
      if (keys && oldArr && isPlainObject(item)) {
        const it = item as Record<string, unknown>;
        o = oldArr.find((x) => isPlainObject(x) && keys.every((k) => JSON.stringify((x as Record<string, unknown>)[k]) === JSON.stringify(it[k])));
        ho = o !== undefined;
      }
      validateNode(node.items!, `${path}[${i}]`, item, o, ho, st, false);
    });
    return;
  }
  if (isPlainObject(obj)) {
    const rec = obj as Record<string, unknown>;
    const mapType = ext<string>(node.schema, 'map-type');
    const correlatable = mapType === undefined || mapType === 'granular' || mapType === 'atomic';
    const oldRec = hasOld && correlatable && isPlainObject(old) ? (old as Record<string, unknown>) : undefined;
    if (node.additionalProperties) {
      for (const k of Object.keys(rec)) {
        if (st.stop) return;
        validateNode(node.additionalProperties, `${path}[${k}]`, rec[k], oldRec?.[k], !!oldRec && k in oldRec, st, false);
      }
    }
    if (node.properties) {
      for (const k of Object.keys(rec)) {
        const sub = node.properties[k];
        if (!sub || st.stop) continue;
        validateNode(sub, joinField(path, k), rec[k], oldRec?.[k], !!oldRec && k in oldRec && oldRec[k] !== null, st, false);
      }
    }
  }
}


function evalRules(node: RuleNode, path: string, obj: unknown, old: unknown, hasOld: boolean, st: State, resourceRoot: boolean): void {
  if (!node.rules.length) return;
  const s = node.schema;
  const typeName = schemaTypeName(s);
  if (st.budget <= 0) {
    st.errs.push(fieldErr.invalid(path || '<nil>', typeName, 'validation failed due to running out of cost budget, no further validation rules will be run'));
    st.stop = true;
    return;
  }
  void resourceRoot;
  const self = fromJson(obj, node.celType);
  const oldSelf = hasOld ? fromJson(old, node.celType) : undefined;
  for (const c of node.rules) {
    const r = c.rule;
    if (c.error) {
      st.errs.push(fieldErr.invalid(path || '<nil>', typeName, `rule compile error: ${c.error}`));
      continue;
    }
    if (!c.program) continue;
    if (c.usesOldSelf && !hasOld && !r.optionalOldSelf) continue;
    const activation: Record<string, CelValue> = { self };
    if (r.optionalOldSelf) activation.oldSelf = hasOld ? CelOptional.of(oldSelf!) : CelOptional.none;
    else if (hasOld) activation.oldSelf = oldSelf!;
    const res = c.program.evaluate(activation, { costLimit: Math.min(PER_CALL_LIMIT, st.budget + 1) });
    if (isRuntimeError(res)) {
      if (res.costLimitExceeded) {
        if (res.cost > st.budget) {
          st.errs.push(fieldErr.invalid(path || '<nil>', typeName, 'validation failed due to running out of cost budget, no further validation rules will be run'));
        } else {
          st.errs.push(fieldErr.invalid(path || '<nil>', typeName, `'${res.message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(r)}`));
        }
        st.stop = true;
        return;
      }
      st.budget -= res.cost;
      if (res.message.startsWith('no such overload')) {
        st.errs.push(fieldErr.invalid(path || '<nil>', typeName, `'${res.message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(r)}`));
      } else {
        st.errs.push(fieldErr.invalid(path || '<nil>', typeName, `${res.message} evaluating rule: ${ruleErrorString(r)}`));
      }
      continue;
    }
    if (res.cost > st.budget) {
      st.errs.push(fieldErr.invalid(path || '<nil>', typeName, 'validation failed due to running out of cost budget, no further validation rules will be run'));
      st.stop = true;
      return;
    }
    st.budget -= res.cost;
    if (res.value === true) continue;
    const field = c.fieldPath ? joinField(path, c.fieldPath).replace(/\.\[/g, '[') : path || '<nil>';
    // ratcheting: a rule without oldSelf on an unchanged value only warns (the warning is not surfaced here)
    if (!c.usesOldSelf && hasOld && JSON.stringify(canon(old)) === JSON.stringify(canon(obj))) continue;
    if (c.messageProgram) {
      const m = c.messageProgram.evaluate({ self, ...(hasOld ? { oldSelf: oldSelf! } : {}) }, { costLimit: Math.min(PER_CALL_LIMIT, st.budget + 1) });
      if (isRuntimeError(m)) {
        if (m.costLimitExceeded) {
          st.errs.push(fieldErr.invalid(field, typeName, m.cost > st.budget
            ? 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'
            : `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(r.messageExpression)}`));
          st.stop = true;
          return;
        }
        st.budget -= m.cost;
        st.errs.push(errorForReason(field, typeName, ruleMessageOrDefault(r), r.reason));
        continue;
      }
      st.budget -= m.cost;
      const msg = typeof m.value === 'string' ? m.value.trim() : '';
      const bad = typeof m.value !== 'string' || msg.length === 0 || /\n/.test(msg) || msg.length > MAX_MESSAGE_EXPRESSION_BYTES;
      st.errs.push(errorForReason(field, typeName, bad ? ruleMessageOrDefault(r) : msg, r.reason));
    } else {
      st.errs.push(errorForReason(field, typeName, ruleMessageOrDefault(r), r.reason));
    }
  }
}

function canon(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon);
  if (isPlainObject(v)) {
    const r = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(r).sort()) out[k] = canon(r[k]);
    return out;
  }
  return v;
}

/** Evaluates the rules of a compiled tree against an object (and its old version on update). */
export function validateRules(tree: RuleNode | undefined, obj: unknown, old?: unknown, opts: { path?: string; budget?: number; resourceRoot?: boolean } = {}): FieldError[] {
  if (!tree) return [];
  const st: State = { budget: opts.budget ?? RUNTIME_CEL_COST_BUDGET, errs: [], stop: false };
  validateNode(tree, opts.path ?? '', obj, old, old !== undefined && old !== null, st, opts.resourceRoot ?? true);
  return st.errs;
}

/** Renders a rule as Go's %#v of apiextensions.ValidationRule (the bad value of CRD rule errors). */
export function goRuleRepr(r: ValidationRule): GoRepr {
  const reason = r.reason ? `(*apiextensions.FieldValueErrorReason)(${JSON.stringify(r.reason)})` : '(*apiextensions.FieldValueErrorReason)(nil)';
  const oos = r.optionalOldSelf === undefined ? '(*bool)(nil)' : `(*bool)(${r.optionalOldSelf})`;
  return new GoRepr(`apiextensions.ValidationRule{Rule:${JSON.stringify(r.rule ?? '')}, Message:${JSON.stringify(r.message ?? '')}, MessageExpression:${JSON.stringify(r.messageExpression ?? '')}, Reason:${reason}, FieldPath:${JSON.stringify(r.fieldPath ?? '')}, OptionalOldSelf:${oos}}`);
}

/** Static cost problems and compile errors of every rule, at CRD create/update. `base` is the schema's path. */
export function validateRuleDefinitions(s: Schema, base: string, opts: { suppressCost?: boolean } = {}): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  let mostExpensive: { path: string; cost: number }[] = [];
  const observe = (path: string, cost: number) => {
    total = Math.min(total + cost, 18446744073709551615);
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    mostExpensive.push({ path, cost });
    mostExpensive.sort((a, b) => b.cost - a.cost);
    mostExpensive = mostExpensive.slice(0, 4);
  };
  // `cardinality` is how many times the node can occur in one object when every enclosing list and map
  // declares its bound (maxItems/maxProperties), or undefined (unbounded) as soon as one does not
  const walk = (node: Schema, path: string, cardinality: number | undefined, resourceRoot: boolean, uncorrelatable: string | undefined) => {
    const rules = (node['x-kubernetes-validations'] ?? []) as ValidationRule[];
    if (rules.length) {
      const root = resourceRoot || !!ext<boolean>(node, 'embedded-resource');
      const compiled = compileRules(node, root);
      // unbounded: the rule's cost times how many of the smallest values of its type fit in one request
      const times = cardinality ?? maxCardinality(schemaMinSerializedSize(node, {}, { resourceRoot: root }));
      compiled.forEach((c, i) => {
        const rp = `${path}.x-kubernetes-validations[${i}]`;
        const cost = satMul(c.cost, times);
        if (!opts.suppressCost && cost > STATIC_ESTIMATED_COST_LIMIT) {
          errs.push(fieldErr.forbidden(`${rp}.rule`, costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
        }
        observe(`${rp}.rule`, cost);
        if (c.error) errs.push(fieldErr.invalid(`${rp}.rule`, goRuleRepr(c.rule), c.error));
        if (c.messageError) errs.push(fieldErr.invalid(`${rp}.messageExpression`, goRuleRepr(c.rule), c.messageError));
        else if (c.messageProgram) {
          if (!opts.suppressCost && c.messageCost > STATIC_ESTIMATED_COST_LIMIT) {
            errs.push(fieldErr.forbidden(`${rp}.messageExpression`, costErrorMessage('estimated messageExpression cost', c.messageCost, STATIC_ESTIMATED_COST_LIMIT)));
          }
          observe(`${rp}.messageExpression`, c.messageCost);
        }
        if (!c.program) return;
        if (c.usesOldSelf) {
          if (uncorrelatable !== undefined) errs.push(fieldErr.invalid(`${rp}.rule`, c.rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
        } else if (c.rule.optionalOldSelf !== undefined) {
          errs.push(fieldErr.invalid(`${rp}.optionalOldSelf`, c.rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
        }
      });
    }
    const child = childCardinality(node, cardinality);
    for (const [k, v] of Object.entries(node.properties ?? {})) walk(v, `${path}.properties[${k}]`, child, false, uncorrelatable);
    if (node.items) {
      const listType = ext<string>(node, 'list-type');
      walk(node.items, `${path}.items`, child, false, uncorrelatable ?? (listType === 'map' ? undefined : path));
    }
    if (node.additionalProperties && typeof node.additionalProperties === 'object') {
      walk(node.additionalProperties, `${path}.additionalProperties`, child, false, uncorrelatable);
    }
  };
  walk(s, base, 1, true, undefined);
  if (total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of mostExpensive) errs.push(fieldErr.forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    errs.push(fieldErr.forbidden(base, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return errs;
}

/** How many elements a node's value can hold: maxProperties of a map, maxItems of a list, 1 otherwise; undefined when unbounded. */
function maxElements(node: Schema): number | undefined {
  if (node.type === 'object') {
    if (node.additionalProperties === undefined) return 1;
    return node.maxProperties === undefined ? undefined : Math.max(0, node.maxProperties);
  }
  if (node.type === 'array') return node.maxItems === undefined ? undefined : Math.max(0, node.maxItems);
  return 1;
}

/** The cardinality of a node's children (apiextensions CELSchemaContext.childContext): unbounded stays unbounded. */
function childCardinality(node: Schema, cardinality: number | undefined): number | undefined {
  if (cardinality === undefined) return undefined;
  const n = maxElements(node);
  return n === undefined ? undefined : satMul(cardinality, n);
}

/** The worst-case repetitions of a value of the given minimum size in one request (a comma between each). */
function maxCardinality(minSize: number | undefined): number {
  if (minSize === undefined) return 1;
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSize + 1));
}

function satMul(a: number, b: number): number {
  if (a === 0) return 0;
  const r = a * b;
  return r > 18446744073709551615 ? 18446744073709551615 : r;
}

/** getCostErrorMessage of the real validation. */
export function costErrorMessage(name: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${name} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
