// Evaluates a compiled policy for one binding and one param [K8S policy/validating validator.go,
// plugin/cel activation.go, composition.go, webhook/matchconditions]: matchConditions (all true, else the
// policy is skipped; errors per failurePolicy), then every validation within one runtime budget, the
// messages of failed validations, then the audit annotations. Variables are evaluated lazily, once per
// evaluation pass, and their cost counts against the budget of the expression that used them.

import { fromJson, type CelValue } from '../../cel/index.js';
import { CelError, CelMap } from '../../cel/values.js';
import {
  MAX_MESSAGE_EXPRESSION_BYTES, NAMESPACE_TYPE, PER_CALL_LIMIT, REQUEST_TYPE, RUNTIME_CEL_COST_BUDGET,
  RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS, type Compiled,
} from './cel.js';
import type { CompiledPolicy } from './compile.js';

export interface PolicyDecision {
  action: 'admit' | 'deny';
  evaluation: 'admit' | 'deny' | 'error';
  message: string;
  reason?: string;
}

export interface AuditAnnotationResult {
  key: string;
  action: 'publish' | 'error' | 'exclude';
  value?: string;
  error?: string;
}

export interface ValidateResult {
  decisions: PolicyDecision[];
  auditAnnotations: AuditAnnotationResult[];
}

/** The inputs of one evaluation, as JSON (converted to CEL values lazily). */
export interface ValidateInput {
  object: unknown;
  oldObject: unknown;
  params: unknown;
  request: unknown;
  namespaceObject: unknown;
  /** The `authorizer` and `authorizer.requestResource` values. */
  authorizer: CelValue;
  requestResource: CelValue;
}

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

class OutOfBudget extends Error {
  constructor() {
    super(OUT_OF_BUDGET);
  }
}

/** `variables`: each variable evaluated on first use, its value (or error) kept for this pass. */
class LazyVariables extends CelMap {
  private readonly done = new Map<string, { value?: CelValue; error?: string }>();
  cost = 0;
  constructor(
    private readonly defs: Map<string, Compiled>,
    private readonly activation: Record<string, CelValue>,
  ) {
    super();
    this.typeName = 'kubernetes.variables';
  }
  private resolve(name: string): CelValue | undefined {
    const c = this.defs.get(name);
    if (!c) return undefined;
    let r = this.done.get(name);
    if (!r) {
      if (c.error || !c.program) r = { error: `composited variable "${name}" fails to compile: ${c.error}` };
      else {
        const out = c.program.evaluate(this.activation, { costLimit: PER_CALL_LIMIT });
        this.cost += out.cost;
        r = 'kind' in out ? { error: `composited variable "${name}" fails to evaluate: ${out.message}` } : { value: out.value };
      }
      this.done.set(name, r);
    }
    if (r.error !== undefined) throw new CelError(r.error);
    return r.value;
  }
  override getStr(k: string): CelValue | undefined {
    return this.resolve(k);
  }
  override get(k: CelValue): CelValue | undefined {
    return typeof k === 'string' ? this.resolve(k) : undefined;
  }
  override has(k: CelValue): boolean {
    return typeof k === 'string' && this.defs.has(k);
  }
  override get size(): number {
    return this.defs.size;
  }
  takeCost(): number {
    const c = this.cost;
    this.cost = 0;
    return c;
  }
}

/** One evaluation pass (ForInput): an activation and a budget. */
class Pass {
  readonly activation: Record<string, CelValue>;
  private readonly variables: LazyVariables;
  constructor(
    policy: CompiledPolicy,
    input: ValidateInput,
    opts: { authorizer: boolean; namespace: boolean },
    public remaining: number,
  ) {
    const act: Record<string, CelValue> = {
      object: fromJson(input.object),
      oldObject: fromJson(input.oldObject),
      params: fromJson(input.params),
      request: fromJson(input.request, REQUEST_TYPE),
      namespaceObject: opts.namespace ? fromJson(input.namespaceObject, NAMESPACE_TYPE) : null,
    };
    if (opts.authorizer) {
      act.authorizer = input.authorizer;
      act['authorizer.requestResource'] = input.requestResource;
    }
    this.variables = new LazyVariables(new Map(policy.variables.map((v) => [v.name, v.compiled])), act);
    act.variables = this.variables;
    this.activation = act;
  }

  /** activation.Evaluate: the value, or the error message; throws OutOfBudget. */
  evaluate(c: Compiled): { value?: CelValue; error?: string } {
    if (c.error || !c.program) return { error: `compilation error: ${c.error}` };
    this.variables.takeCost();
    const out = c.program.evaluate(this.activation, { costLimit: PER_CALL_LIMIT });
    const composition = this.variables.takeCost();
    if (composition > this.remaining) throw new OutOfBudget();
    this.remaining -= composition;
    if (out.cost > this.remaining) throw new OutOfBudget();
    this.remaining -= out.cost;
    if ('kind' in out) return { error: `expression '${c.expression}' resulted in error: ${out.message}` };
    return { value: out.value };
  }
}

function errorDecision(failurePolicy: string, message: string): PolicyDecision {
  return { action: failurePolicy === 'Ignore' ? 'admit' : 'deny', evaluation: 'error', message };
}

/** matchconditions.Matcher.Match: undefined when every condition holds, else 'skip' or an error message. */
function matchConditions(policy: CompiledPolicy, input: ValidateInput): 'match' | 'skip' | { error: string } {
  const pass = new Pass(policy, input, { authorizer: true, namespace: false }, RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS);
  const errors: string[] = [];
  try {
    for (const m of policy.matchConditions) {
      const r = pass.evaluate(m.compiled);
      if (r.error !== undefined) errors.push(r.error);
      else if (r.value === false) return 'skip';
    }
  } catch (e) {
    if (!(e instanceof OutOfBudget)) throw e;
    return policy.failurePolicy === 'Ignore' ? 'skip' : { error: e.message };
  }
  if (errors.length === 0) return 'match';
  if (policy.failurePolicy === 'Ignore') return 'skip';
  // utilerrors.NewAggregate: one error as itself, several as a bracketed list
  return { error: errors.length === 1 ? errors[0] : `[${errors.join(', ')}]` };
}

function trimmedMessage(v: CelValue | undefined): string {
  if (typeof v !== 'string') return '';
  const m = v.trim();
  if (m.length > MAX_MESSAGE_EXPRESSION_BYTES || m.includes('\n')) return '';
  return m;
}

export function validate(policy: CompiledPolicy, input: ValidateInput): ValidateResult {
  const fp = policy.failurePolicy;
  if (policy.matchConditions.length) {
    const m = matchConditions(policy, input);
    if (m === 'skip') return { decisions: [], auditAnnotations: [] };
    if (m !== 'match') return { decisions: [errorDecision(fp, m.error)], auditAnnotations: [] };
  }
  const pass = new Pass(policy, input, { authorizer: true, namespace: true }, RUNTIME_CEL_COST_BUDGET);
  let results: { value?: CelValue; error?: string }[];
  try {
    results = policy.validations.map((v) => pass.evaluate(v.compiled));
  } catch (e) {
    if (!(e instanceof OutOfBudget)) throw e;
    return { decisions: [errorDecision(fp, e.message)], auditAnnotations: [] };
  }
  // the messages of failed validations, in a pass of their own (no authorizer) on the remaining budget
  let messages: Pass | undefined;
  let messageBudgetError: string | undefined;
  const decisions: PolicyDecision[] = results.map((r, i) => {
    const v = policy.validations[i];
    if (r.error !== undefined) return errorDecision(fp, r.error);
    if (r.value === true) return { action: 'admit', evaluation: 'admit', message: '' };
    let message = '';
    if (v.messageExpression && messageBudgetError === undefined) {
      messages ??= new Pass(policy, input, { authorizer: false, namespace: true }, pass.remaining);
      try {
        const m = messages.evaluate(v.messageExpression);
        if (m.error === undefined) message = trimmedMessage(m.value);
      } catch (e) {
        if (!(e instanceof OutOfBudget)) throw e;
        messageBudgetError = `failed messageExpression: ${e.message}`;
      }
    }
    if (messageBudgetError !== undefined) return errorDecision(fp, messageBudgetError);
    if (!message && v.message) message = v.message.trim();
    if (!message) message = `failed expression: ${v.expression.trim()}`;
    return { action: 'deny', evaluation: 'deny', message, reason: v.reason ?? 'Invalid' };
  });
  const auditAnnotations: AuditAnnotationResult[] = [];
  if (policy.auditAnnotations.length) {
    const audit = new Pass(policy, input, { authorizer: false, namespace: true }, RUNTIME_CEL_COST_BUDGET);
    try {
      for (const a of policy.auditAnnotations) {
        const r = audit.evaluate(a.compiled);
        const onError = (error: string): AuditAnnotationResult => ({ key: a.key, action: fp === 'Ignore' ? 'exclude' : 'error', error });
        if (r.error !== undefined) auditAnnotations.push(onError(r.error));
        else if (r.value === null) auditAnnotations.push({ key: a.key, action: 'exclude' });
        else if (typeof r.value === 'string') {
          const value = r.value.trim();
          auditAnnotations.push(value ? { key: a.key, action: 'publish', value } : { key: a.key, action: 'exclude' });
        } else {
          auditAnnotations.push({
            key: a.key, action: 'error',
            error: `valueExpression '${a.valueExpression}' resulted in unsupported return type: ${a.compiled.outputType.kind}. Return type must be either string or null.`,
          });
        }
      }
    } catch (e) {
      if (!(e instanceof OutOfBudget)) throw e;
      return { decisions: [errorDecision(fp, e.message)], auditAnnotations: [] };
    }
  }
  return { decisions, auditAnnotations };
}
