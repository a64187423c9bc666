// Conversion between autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscalers, as the real server converts
// through its internal (v2-shaped) type (pkg/apis/autoscaling/v1 conversion): v1's
// targetCPUUtilizationPercentage is a v2 Resource/cpu Utilization metric; what v1 cannot express travels in
// the autoscaling.alpha.kubernetes.io/* annotations: the other metrics and the current metrics in v1's own
// metric format, the conditions, and the behavior (marshalled from the internal type, so with Go field
// names). Both versions are served from one stored object (storage version autoscaling/v2).

import type { KubeObject } from '../../object.js';
import { a, o } from '../common/printers.js';

type Obj = Record<string, unknown>;

export const METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
const ROUND_TRIP = [METRICS_ANNOTATION, BEHAVIOR_ANNOTATION, CURRENT_METRICS_ANNOTATION, CONDITIONS_ANNOTATION];

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Copies the keys whose values are set (Go's omitempty on pointers and slices). */
function pick(src: Obj, pairs: [string, string][]): Obj {
  const out: Obj = {};
  for (const [from, to] of pairs) if (src[from] !== undefined && src[from] !== null) out[to] = src[from];
  return out;
}

/** A non-pointer resource.Quantity of v1: always serialized, "0" when unset. */
const qty = (v: unknown): unknown => (v === undefined || v === null ? '0' : v);

function isCPU(m: Obj): boolean {
  return m.type === 'Resource' && o(m.resource).name === 'cpu';
}

// ---- metric specs ---------------------------------------------------------------------------------

function specToV1(m: Obj): Obj {
  const out: Obj = { type: m.type };
  switch (m.type) {
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const r = o(m[key]);
      const t = o(r.target);
      out[key] = { name: r.name, ...(key === 'containerResource' ? { container: r.container } : {}), ...pick(t, [['averageUtilization', 'targetAverageUtilization'], ['averageValue', 'targetAverageValue']]) };
      break;
    }
    case 'Pods': {
      const p = o(m.pods);
      out.pods = { metricName: o(p.metric).name, targetAverageValue: qty(o(p.target).averageValue), ...pick(o(p.metric), [['selector', 'selector']]) };
      break;
    }
    case 'Object': {
      const p = o(m.object);
      const d = o(p.describedObject);
      out.object = {
        target: pick(d, [['kind', 'kind'], ['name', 'name'], ['apiVersion', 'apiVersion']]),
        metricName: o(p.metric).name,
        targetValue: qty(o(p.target).value),
        ...pick(o(p.metric), [['selector', 'selector']]),
        ...pick(o(p.target), [['averageValue', 'averageValue']]),
      };
      break;
    }
    case 'External': {
      const p = o(m.external);
      out.external = { metricName: o(p.metric).name, ...pick(o(p.metric), [['selector', 'metricSelector']]), ...pick(o(p.target), [['value', 'targetValue'], ['averageValue', 'targetAverageValue']]) };
      break;
    }
  }
  return out;
}

function specFromV1(m: Obj): Obj {
  const out: Obj = { type: m.type };
  switch (m.type) {
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const r = o(m[key]);
      const util = r.targetAverageUtilization;
      const target: Obj = { type: util === undefined || util === null ? 'AverageValue' : 'Utilization', ...pick(r, [['targetAverageValue', 'averageValue'], ['targetAverageUtilization', 'averageUtilization']]) };
      out[key] = { name: r.name, target, ...(key === 'containerResource' ? { container: r.container } : {}) };
      break;
    }
    case 'Pods': {
      const p = o(m.pods);
      out.pods = { metric: { name: p.metricName, ...pick(p, [['selector', 'selector']]) }, target: { type: 'AverageValue', averageValue: qty(p.targetAverageValue) } };
      break;
    }
    case 'Object': {
      const p = o(m.object);
      const avg = p.averageValue;
      out.object = {
        describedObject: pick(o(p.target), [['kind', 'kind'], ['name', 'name'], ['apiVersion', 'apiVersion']]),
        target: { type: avg === undefined || avg === null ? 'Value' : 'AverageValue', value: qty(p.targetValue), ...pick(p, [['averageValue', 'averageValue']]) },
        metric: { name: p.metricName, ...pick(p, [['selector', 'selector']]) },
      };
      break;
    }
    case 'External': {
      const p = o(m.external);
      const value = p.targetValue;
      out.external = {
        metric: { name: p.metricName, ...pick(p, [['metricSelector', 'selector']]) },
        target: { type: value === undefined || value === null ? 'AverageValue' : 'Value', ...pick(p, [['targetValue', 'value'], ['targetAverageValue', 'averageValue']]) },
      };
      break;
    }
  }
  return out;
}

// ---- metric statuses ------------------------------------------------------------------------------

function statusToV1(m: Obj): Obj {
  const out: Obj = { type: m.type };
  switch (m.type) {
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const r = o(m[key]);
      const c = o(r.current);
      out[key] = { name: r.name, ...pick(c, [['averageUtilization', 'currentAverageUtilization']]), currentAverageValue: qty(c.averageValue), ...(key === 'containerResource' ? { container: r.container } : {}) };
      break;
    }
    case 'Pods': {
      const p = o(m.pods);
      out.pods = { metricName: o(p.metric).name, currentAverageValue: qty(o(p.current).averageValue), ...pick(o(p.metric), [['selector', 'selector']]) };
      break;
    }
    case 'Object': {
      const p = o(m.object);
      out.object = {
        target: pick(o(p.describedObject), [['kind', 'kind'], ['name', 'name'], ['apiVersion', 'apiVersion']]),
        metricName: o(p.metric).name,
        currentValue: qty(o(p.current).value),
        ...pick(o(p.metric), [['selector', 'selector']]),
        ...pick(o(p.current), [['averageValue', 'averageValue']]),
      };
      break;
    }
    case 'External': {
      const p = o(m.external);
      out.external = { metricName: o(p.metric).name, ...pick(o(p.metric), [['selector', 'metricSelector']]), currentValue: qty(o(p.current).value), ...pick(o(p.current), [['averageValue', 'currentAverageValue']]) };
      break;
    }
  }
  return out;
}

function statusFromV1(m: Obj): Obj {
  const out: Obj = { type: m.type };
  switch (m.type) {
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const r = o(m[key]);
      out[key] = { name: r.name, current: { averageValue: qty(r.currentAverageValue), ...pick(r, [['currentAverageUtilization', 'averageUtilization']]) }, ...(key === 'containerResource' ? { container: r.container } : {}) };
      break;
    }
    case 'Pods': {
      const p = o(m.pods);
      out.pods = { metric: { name: p.metricName, ...pick(p, [['selector', 'selector']]) }, current: { averageValue: qty(p.currentAverageValue) } };
      break;
    }
    case 'Object': {
      const p = o(m.object);
      out.object = {
        metric: { name: p.metricName, ...pick(p, [['selector', 'selector']]) },
        current: { value: qty(p.currentValue), ...pick(p, [['averageValue', 'averageValue']]) },
        describedObject: pick(o(p.target), [['kind', 'kind'], ['name', 'name'], ['apiVersion', 'apiVersion']]),
      };
      break;
    }
    case 'External': {
      const p = o(m.external);
      out.external = { metric: { name: p.metricName, ...pick(p, [['metricSelector', 'selector']]) }, current: { value: qty(p.currentValue), ...pick(p, [['currentAverageValue', 'averageValue']]) } };
      break;
    }
  }
  return out;
}

// ---- behavior (the internal type has no JSON tags: Go field names) -----------------------------------

const RULE_FIELDS: [string, string][] = [['stabilizationWindowSeconds', 'StabilizationWindowSeconds'], ['selectPolicy', 'SelectPolicy'], ['policies', 'Policies'], ['tolerance', 'Tolerance']];

function behaviorToInternal(b: Obj): Obj {
  const rules = (r: unknown): Obj | null => {
    if (!r) return null;
    const out: Obj = {};
    for (const [k, g] of RULE_FIELDS) {
      const v = o(r)[k];
      if (k === 'policies') out[g] = v === undefined ? null : a(v).map((p) => ({ Type: p.type, Value: p.value, PeriodSeconds: p.periodSeconds }));
      else out[g] = v ?? null;
    }
    return out;
  };
  return { ScaleUp: rules(b.scaleUp), ScaleDown: rules(b.scaleDown) };
}

function behaviorFromInternal(b: Obj): Obj {
  const rules = (r: unknown): Obj | undefined => {
    if (!r) return undefined;
    const out: Obj = {};
    for (const [k, g] of RULE_FIELDS) {
      const v = o(r)[g];
      if (v === undefined || v === null) continue;
      out[k] = k === 'policies' ? a(v).map((p) => ({ type: p.Type, value: p.Value, periodSeconds: p.PeriodSeconds })) : v;
    }
    return out;
  };
  const out: Obj = {};
  const up = rules(b.ScaleUp);
  const down = rules(b.ScaleDown);
  if (up) out.scaleUp = up;
  if (down) out.scaleDown = down;
  return out;
}

// ---- objects --------------------------------------------------------------------------------------

function withoutRoundTrip(annotations: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = { ...(annotations ?? {}) };
  for (const k of ROUND_TRIP) delete out[k];
  return out;
}

function setAnnotations(obj: KubeObject, annotations: Record<string, string>): void {
  if (!obj.metadata) obj.metadata = {};
  if (Object.keys(annotations).length) obj.metadata.annotations = annotations;
  else delete obj.metadata.annotations;
}

/** autoscaling/v2 -> autoscaling/v1. */
export function hpaToV1(v2: KubeObject): KubeObject {
  const obj = clone(v2);
  obj.apiVersion = 'autoscaling/v1';
  const spec = o(obj.spec);
  const status = o(obj.status);
  // annotations of an earlier round trip are dropped before this conversion sets its own
  const annotations = withoutRoundTrip(obj.metadata?.annotations);
  const metrics = a(spec.metrics);
  const outSpec: Obj = pick(spec, [['scaleTargetRef', 'scaleTargetRef'], ['minReplicas', 'minReplicas'], ['maxReplicas', 'maxReplicas']]);
  const cpu = metrics.find(isCPU);
  const cpuTarget = o(o(cpu?.resource).target).averageUtilization;
  if (typeof cpuTarget === 'number') outSpec.targetCPUUtilizationPercentage = cpuTarget;
  const others = metrics.filter((m) => !(isCPU(m) && typeof o(o(m.resource).target).averageUtilization === 'number'));
  if (others.length) annotations[METRICS_ANNOTATION] = JSON.stringify(others.map(specToV1));
  if (spec.behavior) annotations[BEHAVIOR_ANNOTATION] = JSON.stringify(behaviorToInternal(o(spec.behavior)));
  obj.spec = outSpec;
  const outStatus: Obj = pick(status, [['observedGeneration', 'observedGeneration'], ['lastScaleTime', 'lastScaleTime']]);
  outStatus.currentReplicas = status.currentReplicas ?? 0;
  outStatus.desiredReplicas = status.desiredReplicas ?? 0;
  const current = a(status.currentMetrics);
  for (const m of current) {
    const u = o(o(m.resource).current).averageUtilization;
    if (isCPU(m) && typeof u === 'number') outStatus.currentCPUUtilizationPercentage = u;
  }
  if (current.length) annotations[CURRENT_METRICS_ANNOTATION] = JSON.stringify(current.map(statusToV1));
  const conditions = a(status.conditions);
  if (conditions.length) annotations[CONDITIONS_ANNOTATION] = JSON.stringify(conditions);
  obj.status = outStatus;
  setAnnotations(obj, annotations);
  return obj;
}

function takeJSON(annotations: Record<string, string>, key: string): unknown {
  const raw = annotations[key];
  if (raw === undefined) return undefined;
  delete annotations[key];
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** autoscaling/v1 -> autoscaling/v2. */
export function hpaToV2(v1: KubeObject): KubeObject {
  const obj = clone(v1);
  obj.apiVersion = 'autoscaling/v2';
  const spec = o(obj.spec);
  const status = o(obj.status);
  const annotations: Record<string, string> = { ...(obj.metadata?.annotations ?? {}) };
  const outSpec: Obj = pick(spec, [['scaleTargetRef', 'scaleTargetRef'], ['minReplicas', 'minReplicas'], ['maxReplicas', 'maxReplicas']]);
  let metrics: Obj[] = [];
  if (typeof spec.targetCPUUtilizationPercentage === 'number') {
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
  }
  const others = takeJSON(annotations, METRICS_ANNOTATION);
  // the other metrics first, then the CPU target of the spec
  if (Array.isArray(others)) metrics = [...(others as Obj[]).map(specFromV1), ...metrics];
  // autoscaling/v1's implicit default, made explicit
  if (!metrics.length) metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } });
  outSpec.metrics = metrics;
  const behavior = takeJSON(annotations, BEHAVIOR_ANNOTATION);
  if (behavior && typeof behavior === 'object') outSpec.behavior = behaviorFromInternal(behavior as Obj);
  obj.spec = outSpec;
  const outStatus: Obj = pick(status, [['observedGeneration', 'observedGeneration'], ['lastScaleTime', 'lastScaleTime']]);
  // v2's currentReplicas is omitempty, desiredReplicas is not
  if (typeof status.currentReplicas === 'number' && status.currentReplicas !== 0) outStatus.currentReplicas = status.currentReplicas;
  outStatus.desiredReplicas = status.desiredReplicas ?? 0;
  if (typeof status.currentCPUUtilizationPercentage === 'number') {
    outStatus.currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }];
  }
  const current = takeJSON(annotations, CURRENT_METRICS_ANNOTATION);
  // the annotation has more detail than currentCPUUtilizationPercentage
  if (Array.isArray(current)) outStatus.currentMetrics = (current as Obj[]).map(statusFromV1);
  const conditions = takeJSON(annotations, CONDITIONS_ANNOTATION);
  if (Array.isArray(conditions)) outStatus.conditions = conditions;
  obj.status = outStatus;
  setAnnotations(obj, annotations);
  return obj;
}

/** Converts an HPA object (either version) to `apiVersion` (autoscaling/v1 or autoscaling/v2). */
export function convertHorizontalPodAutoscaler(obj: KubeObject, apiVersion: string): KubeObject {
  if (obj.apiVersion === apiVersion) return clone(obj);
  return apiVersion === 'autoscaling/v1' ? hpaToV1(obj) : hpaToV2(obj);
}
