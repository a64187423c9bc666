// CEL evaluator: an expression editor (textarea over a highlighted copy, with the error range underlined),
// variables from YAML or from the selected object, a compatibility version, and the result from the
// engine's POST /x-playground/cel: value and CEL type, runtime cost and static estimate against the limits,
// compile and runtime errors told apart. Examples and a library reference sit beside it.
import { dump } from 'js-yaml';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { usePlayground, usePlaygroundStore } from '../../playground.js';
import { errorText, fetchJson, usePanelTheme } from '../common/ui.js';
import { collectionPath } from '../timeline/stream.js';
import { withoutManagedFields } from '../managed-fields/fields.js';
import { segments } from './highlight.js';
import { parseSchema, parseVariables } from './variables.js';
import { BINDABLE, CEL_VERSIONS, EXAMPLES, LIBRARY } from './reference.js';
import { celContent } from './content.js';

const SOURCE = 'cel';
export const CEL_PATH = '/x-playground/cel';

interface CelPosition {
  line: number;
  column: number;
  offset: number;
  length: number;
}
export interface CelResponse {
  value?: unknown;
  type?: string;
  cost?: number;
  estimatedCost?: { min: number; max: number };
  limits?: { runtime: number; estimate: number };
  error?: { kind: 'compile' | 'runtime'; message: string; formatted?: string; position?: CelPosition; costLimitExceeded?: boolean };
}

type Outcome =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; res: CelResponse; ms: number }
  | { state: 'http'; status: number; message: string }
  | { state: 'input'; message: string };

function Meter({ value, limit, label }: { value: number; limit: number; label: string }) {
  const pct = Math.min(100, (value / limit) * 100);
  return (
    <span className={`meter${value > limit ? ' over' : ''}`} role="meter" aria-label={label} aria-valuenow={value} aria-valuemin={0} aria-valuemax={limit}>
      <span style={{ width: `${Math.max(pct, value > 0 ? 1 : 0)}%` }} />
    </span>
  );
}

export function CelEvaluator() {
  const theme = usePanelTheme();
  const store = usePlaygroundStore();
  const selected = usePlayground((s) => s.selected);
  const ids = { expr: useId(), vars: useId(), schema: useId(), version: useId(), bind: useId(), example: useId() };
  const [expression, setExpression] = useState(() => celContent.get()?.expression ?? EXAMPLES[0].expression);
  const [varsText, setVarsText] = useState(() => celContent.get()?.variables ?? EXAMPLES[0].variables);
  const [schemaText, setSchemaText] = useState(EXAMPLES[0].schema ?? '');
  // kept in celContent both ways: share links read it and may set it while the panel is open
  useEffect(
    () =>
      celContent.subscribe(() => {
        const c = celContent.get();
        if (c) {
          setExpression(c.expression);
          setVarsText(c.variables);
        }
      }),
    [],
  );
  useEffect(() => {
    const c = celContent.get();
    if (c?.expression !== expression || c?.variables !== varsText) celContent.set({ expression, variables: varsText });
  }, [expression, varsText]);
  const [version, setVersion] = useState('1.33');
  const [auto, setAuto] = useState(true);
  const [bindAs, setBindAs] = useState<string>('self');
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const [bindStatus, setBindStatus] = useState<string>();
  const seq = useRef(0);
  const overlay = useRef<HTMLPreElement>(null);

  const evaluate = async () => {
    const parsed = parseVariables(varsText);
    if ('error' in parsed) {
      setOutcome({ state: 'input', message: parsed.error });
      return;
    }
    const parsedSchema = parseSchema(schemaText);
    if ('error' in parsedSchema) {
      setOutcome({ state: 'input', message: parsedSchema.error });
      return;
    }
    // self and oldSelf share the schema, as a CRD rule's do
    const schemas: Record<string, unknown> = {};
    if (parsedSchema.schema) for (const v of ['self', 'oldSelf']) if (v in parsed.vars) schemas[v] = parsedSchema.schema;
    const my = ++seq.current;
    setOutcome({ state: 'running' });
    const t0 = performance.now();
    try {
      const res = await store.fetch(
        CEL_PATH,
        { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ expression, variables: parsed.vars, version, ...(Object.keys(schemas).length ? { schemas } : {}) }) },
        SOURCE,
      );
      const text = await res.text();
      if (my !== seq.current) return;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (!res.ok) {
        const m = (body as { message?: string } | undefined)?.message;
        setOutcome({
          state: 'http',
          status: res.status,
          message:
            res.status === 404
              ? `The engine answered 404 for POST ${CEL_PATH}: this engine has no CEL evaluation endpoint.${m ? ` (${m})` : ''}`
              : `${res.status}: ${m ?? text.slice(0, 300)}`,
        });
        return;
      }
      setOutcome({ state: 'done', res: body as CelResponse, ms: performance.now() - t0 });
    } catch (e) {
      if (my === seq.current) setOutcome({ state: 'http', status: 0, message: errorText(e) });
    }
  };

  useEffect(() => {
    if (!auto) return;
    const t = setTimeout(() => void evaluate(), 350);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [expression, varsText, schemaText, version, auto]);

  const bindSelected = async () => {
    if (!selected) return;
    try {
      const obj = await fetchJson<unknown>(store, `${collectionPath(selected.groupVersion, selected.resource, selected.namespace)}/${encodeURIComponent(selected.name)}`, SOURCE);
      const parsed = parseVariables(varsText);
      const vars = 'vars' in parsed ? parsed.vars : {};
      vars[bindAs] = withoutManagedFields(obj);
      setVarsText(dump(vars, { noRefs: true, lineWidth: -1 }));
      // an object of another shape: the example's schema no longer describes self / oldSelf
      const untyped = (bindAs === 'self' || bindAs === 'oldSelf') && schemaText.trim() !== '';
      if (untyped) setSchemaText('');
      setBindStatus(`${bindAs} = ${selected.kind} ${selected.namespace ? `${selected.namespace}/` : ''}${selected.name}${untyped ? ' (schema cleared: untyped)' : ''}`);
    } catch (e) {
      setBindStatus(`could not read the selected object: ${errorText(e)}`);
    }
  };

  const error = outcome.state === 'done' ? outcome.res.error : undefined;
  const segs = useMemo(() => segments(expression, error?.position), [expression, error?.position]);
  const res = outcome.state === 'done' ? outcome.res : undefined;

  return (
    <section className="pp" aria-label="CEL evaluator" data-testid="cel-evaluator" data-theme={theme}>
      <div className="pp-toolbar">
        <h3>CEL</h3>
        <label htmlFor={ids.version}>Compatibility version</label>
        <select id={ids.version} value={version} onChange={(e) => setVersion(e.target.value)}>
          {CEL_VERSIONS.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
        <label htmlFor={ids.example}>Example</label>
        <select
          id={ids.example}
          value=""
          onChange={(e) => {
            const ex = EXAMPLES[Number(e.target.value)];
            if (!ex) return;
            setExpression(ex.expression);
            setVarsText(ex.variables);
            setSchemaText(ex.schema ?? '');
          }}
        >
          <option value="">choose…</option>
          {EXAMPLES.map((x, i) => (
            <option key={x.label} value={i}>
              {x.label}
            </option>
          ))}
        </select>
        <label>
          <input type="checkbox" checked={auto} onChange={(e) => setAuto(e.target.checked)} /> evaluate as I type
        </label>
        <button type="button" onClick={() => void evaluate()} title="Ctrl+Enter">
          Evaluate
        </button>
      </div>
      <div className="pp-two">
        <div style={{ display: 'flex', flexDirection: 'column', gap: '0.5rem', minWidth: 0 }}>
          <label htmlFor={ids.expr}>Expression</label>
          <div className="cel-editor">
            <pre ref={overlay} aria-hidden="true" data-testid="cel-highlight">
              {segs.map((s, i) => (
                <span key={i} className={`tok-${s.type}${s.error ? ' tok-err' : ''}`} data-error={s.error || undefined}>
                  {s.text}
                </span>
              ))}
              {'\n'}
            </pre>
            <textarea
              id={ids.expr}
              value={expression}
              spellCheck={false}
              autoCapitalize="off"
              autoCorrect="off"
              rows={4}
              onChange={(e) => setExpression(e.target.value)}
              onScroll={(e) => {
                if (overlay.current) overlay.current.scrollTop = e.currentTarget.scrollTop;
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  void evaluate();
                }
              }}
              aria-invalid={!!error}
              aria-describedby={`${ids.expr}-result`}
            />
          </div>
          <div id={`${ids.expr}-result`} aria-live="polite" data-testid="cel-result">
            <Result outcome={outcome} />
          </div>
          {res && (res.cost !== undefined || res.estimatedCost) && res.limits && (
            <div className="cel-result" data-testid="cel-cost">
              {res.cost !== undefined && (
                <div>
                  Runtime cost <strong>{res.cost.toLocaleString('en-US')}</strong> of {res.limits.runtime.toLocaleString('en-US')} per expression{' '}
                  <Meter value={res.cost} limit={res.limits.runtime} label="runtime cost" />
                </div>
              )}
              {res.estimatedCost && (
                <div>
                  Static estimate <strong>{res.estimatedCost.min.toLocaleString('en-US')}</strong> – <strong>{res.estimatedCost.max.toLocaleString('en-US')}</strong> of{' '}
                  {res.limits.estimate.toLocaleString('en-US')} <Meter value={res.estimatedCost.max} limit={res.limits.estimate} label="estimated cost" />
                  {res.estimatedCost.max > res.limits.estimate && (
                    <div className="pp-muted">
                      Over the estimate limit: a CRD would reject such a rule. Variables without a schema are untyped (dyn) values of unknown
                      size, so the estimate assumes the worst; maxLength / maxItems / maxProperties in the schema bound it.
                    </div>
                  )}
                </div>
              )}
            </div>
          )}
          <label htmlFor={ids.vars}>Variables (YAML: {BINDABLE.join(', ')})</label>
          <textarea id={ids.vars} className="pp-mono" value={varsText} onChange={(e) => setVarsText(e.target.value)} rows={10} spellCheck={false} data-testid="cel-variables" />
          <label htmlFor={ids.schema}>Schema of self and oldSelf (OpenAPI v3 YAML, as in a CRD; empty: untyped)</label>
          <textarea id={ids.schema} className="pp-mono" value={schemaText} onChange={(e) => setSchemaText(e.target.value)} rows={6} spellCheck={false} data-testid="cel-schema" />
          <div className="pp-toolbar">
            <label htmlFor={ids.bind}>Bind the selected object as</label>
            <select id={ids.bind} value={bindAs} onChange={(e) => setBindAs(e.target.value)}>
              {BINDABLE.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </select>
            <button type="button" disabled={!selected} onClick={() => void bindSelected()}>
              {selected ? `Bind ${selected.kind} ${selected.name}` : 'Bind (select an object first)'}
            </button>
            {bindStatus && <span className="pp-muted">{bindStatus}</span>}
          </div>
        </div>
        <div className="pp-scroll" style={{ maxHeight: 520, padding: '0 0.5rem' }} aria-label="CEL library reference">
          <h4>Library reference</h4>
          {LIBRARY.map((sec) => (
            <details key={sec.title} open={sec.title.startsWith('Core')}>
              <summary>{sec.title}</summary>
              <dl style={{ display: 'block' }}>
                {sec.entries.map((e) => (
                  <div key={e.name} style={{ margin: '0.3rem 0', opacity: e.since && e.since > version ? 0.5 : 1 }}>
                    <dt className="pp-mono">
                      {e.name} {e.since && <span className="pp-muted">(≥ {e.since})</span>}
                    </dt>
                    <dd>
                      <code>{e.signature}</code> — {e.doc}
                    </dd>
                  </div>
                ))}
              </dl>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}

function Result({ outcome }: { outcome: Outcome }) {
  switch (outcome.state) {
    case 'idle':
      return <p className="pp-muted">Press Evaluate (Ctrl+Enter).</p>;
    case 'running':
      return <p className="pp-muted">evaluating…</p>;
    case 'input':
      return (
        <p role="alert" className="pp-error">
          {outcome.message}
        </p>
      );
    case 'http':
      return (
        <p role="alert" className="pp-error" data-testid="cel-http-error">
          {outcome.message}
        </p>
      );
    case 'done': {
      const { res } = outcome;
      if (res.error) {
        const compile = res.error.kind === 'compile';
        return (
          <div className={`cel-result ${res.error.kind}`} data-kind={res.error.kind}>
            <strong className={compile ? undefined : 'pp-error'}>{compile ? 'Compile error' : res.error.costLimitExceeded ? 'Runtime error (cost limit exceeded)' : 'Runtime error'}</strong>
            {res.error.position && (
              <span className="pp-muted">
                {' '}
                at line {res.error.position.line}, column {res.error.position.column}
              </span>
            )}
            <pre style={{ border: 'none', padding: 0 }}>{res.error.formatted ?? res.error.message}</pre>
          </div>
        );
      }
      return (
        <div className="cel-result" data-kind="value">
          <div>
            <span className="pp-muted">type</span> <strong className="pp-mono" data-testid="cel-type">{res.type}</strong>{' '}
            <span className="pp-muted">({outcome.ms.toFixed(0)} ms round trip)</span>
          </div>
          <pre style={{ border: 'none', padding: 0 }} data-testid="cel-value">
            {JSON.stringify(res.value, null, 2)}
          </pre>
        </div>
      );
    }
  }
}
