// Conversion between autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscalers, as the real server converts
// through its internal (v2-shaped) type: v1's targetCPUUtilizationPercentage is a v2 Resource/cpu
// Utilization metric; the v2 fields v1 cannot express travel in autoscaling.alpha.kubernetes.io/*
// annotations. Both versions are served from one stored object (storage version v2).

import type { KubeObject } from '../../object.js';
import { a, o, str } from '../common/printers.js';

type Obj = Record<string, unknown>;

const METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
const CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function isCPUUtilization(m: Obj): boolean {
  const r = o(m.resource);
  return m.type === 'Resource' && r.name === 'cpu' && o(r.target).type === 'Utilization' && typeof o(r.target).averageUtilization === 'number';
}

/** autoscaling/v2 -> autoscaling/v1. */
export function hpaToV1(v2: KubeObject): KubeObject {
  const obj = clone(v2);
  obj.apiVersion = 'autoscaling/v1';
  const spec = o(obj.spec);
  const status = o(obj.status);
  const annotations: Record<string, string> = { ...(obj.metadata?.annotations ?? {}) };
  const metrics = a(spec.metrics);
  const cpu = metrics.find(isCPUUtilization);
  const others = metrics.filter((m) => m !== cpu);
  const outSpec: Obj = {};
  if (spec.scaleTargetRef !== undefined) outSpec.scaleTargetRef = spec.scaleTargetRef;
  if (spec.minReplicas !== undefined) outSpec.minReplicas = spec.minReplicas;
  if (spec.maxReplicas !== undefined) outSpec.maxReplicas = spec.maxReplicas;
  if (cpu) outSpec.targetCPUUtilizationPercentage = o(o(cpu.resource).target).averageUtilization;
  if (others.length) annotations[METRICS_ANNOTATION] = JSON.stringify(others);
  if (spec.behavior) annotations[BEHAVIOR_ANNOTATION] = JSON.stringify(spec.behavior);
  obj.spec = outSpec;
  if (obj.status !== undefined) {
    const outStatus: Obj = {};
    for (const k of ['observedGeneration', 'lastScaleTime', 'currentReplicas', 'desiredReplicas']) if (status[k] !== undefined) outStatus[k] = status[k];
    const current = a(status.currentMetrics);
    const curCPU = current.find((m) => m.type === 'Resource' && o(m.resource).name === 'cpu' && typeof o(o(m.resource).current).averageUtilization === 'number');
    if (curCPU) outStatus.currentCPUUtilizationPercentage = o(o(curCPU.resource).current).averageUtilization;
    if (current.length) annotations[CURRENT_METRICS_ANNOTATION] = JSON.stringify(current);
    if (a(status.conditions).length) annotations[CONDITIONS_ANNOTATION] = JSON.stringify(status.conditions);
    if (outStatus.currentReplicas === undefined) outStatus.currentReplicas = 0;
    if (outStatus.desiredReplicas === undefined) outStatus.desiredReplicas = 0;
    obj.status = outStatus;
  }
  if (Object.keys(annotations).length) obj.metadata = { ...obj.metadata, annotations };
  return obj;
}

function parseAnnotation(annotations: Record<string, string>, key: string): unknown {
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
  const metrics: Obj[] = [];
  if (typeof spec.targetCPUUtilizationPercentage === 'number') {
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
  }
  const extra = parseAnnotation(annotations, METRICS_ANNOTATION);
  if (Array.isArray(extra)) metrics.push(...(extra as Obj[]));
  const behavior = parseAnnotation(annotations, BEHAVIOR_ANNOTATION);
  const outSpec: Obj = {};
  if (spec.scaleTargetRef !== undefined) outSpec.scaleTargetRef = spec.scaleTargetRef;
  if (spec.minReplicas !== undefined) outSpec.minReplicas = spec.minReplicas;
  if (spec.maxReplicas !== undefined) outSpec.maxReplicas = spec.maxReplicas;
  if (metrics.length) outSpec.metrics = metrics;
  if (behavior && typeof behavior === 'object') outSpec.behavior = behavior;
  obj.spec = outSpec;
  const current = parseAnnotation(annotations, CURRENT_METRICS_ANNOTATION);
  const conditions = parseAnnotation(annotations, CONDITIONS_ANNOTATION);
  if (obj.status !== undefined) {
    const outStatus: Obj = {};
    for (const k of ['observedGeneration', 'lastScaleTime', 'currentReplicas', 'desiredReplicas']) if (status[k] !== undefined) outStatus[k] = status[k];
    if (Array.isArray(current)) outStatus.currentMetrics = current;
    else if (typeof status.currentCPUUtilizationPercentage === 'number') {
      outStatus.currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }];
    }
    if (Array.isArray(conditions)) outStatus.conditions = conditions;
    obj.status = outStatus;
  }
  if (obj.metadata) {
    if (Object.keys(annotations).length) obj.metadata.annotations = annotations;
    else delete obj.metadata.annotations;
  }
  return obj;
}

/** Converts an HPA object to the requested version ('v1' or 'v2'); other versions are returned as is. */
export function convertHorizontalPodAutoscaler(obj: KubeObject, toVersion: string): KubeObject {
  const from = str(obj.apiVersion).split('/')[1] ?? '';
  if (from === toVersion) return obj;
  if (toVersion === 'v1') return hpaToV1(obj);
  if (toVersion === 'v2') return hpaToV2(obj);
  return obj;
}
