// HorizontalPodAutoscalers (autoscaling/v2, preferred, and autoscaling/v1): SetDefaults_HorizontalPodAutoscaler,
// the main checks of ValidateHorizontalPodAutoscaler, the printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { nameIsPathSegment } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { a, ageColumn, col, int, o, str, zeroStatusFields } from '../common/printers.js';
import type { VersionConversion } from '../../registry/conversion.js';
import { convertHorizontalPodAutoscaler } from './convert.js';

type Obj = Record<string, unknown>;

const SCALE_UP: Obj = { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
const SCALE_DOWN: Obj = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

function rules(from: unknown, defaults: Obj): Obj {
  const out: Obj = JSON.parse(JSON.stringify(defaults));
  const f = o(from);
  for (const k of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance']) if (f[k] !== undefined && f[k] !== null) out[k] = f[k];
  return out;
}

function defaultHPAv2(obj: KubeObject): void {
  const spec = (obj.spec = o(obj.spec));
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  if (spec.behavior !== undefined && spec.behavior !== null) {
    const b = o(spec.behavior);
    spec.behavior = { scaleUp: rules(b.scaleUp, SCALE_UP), scaleDown: rules(b.scaleDown, SCALE_DOWN) };
  }
  zeroStatusFields(obj, ['desiredReplicas']);
}

function validateScaleTarget(ref: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const r = o(ref);
  if (!r.kind) errs.push(fieldErr.required(`${path}.kind`, ''));
  else for (const m of nameIsPathSegment(str(r.kind), false)) errs.push(fieldErr.invalid(`${path}.kind`, r.kind, m));
  if (!r.name) errs.push(fieldErr.required(`${path}.name`, ''));
  else for (const m of nameIsPathSegment(str(r.name), false)) errs.push(fieldErr.invalid(`${path}.name`, r.name, m));
  return errs;
}

function validateHPA(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  if (typeof spec.minReplicas === 'number' && spec.minReplicas < 1) {
    errs.push(fieldErr.invalid('spec.minReplicas', spec.minReplicas, 'must be greater than or equal to 1'));
  }
  if (int(spec.maxReplicas) < 1) errs.push(fieldErr.invalid('spec.maxReplicas', int(spec.maxReplicas), 'must be greater than 0'));
  if (typeof spec.minReplicas === 'number' && int(spec.maxReplicas) < spec.minReplicas) {
    errs.push(fieldErr.invalid('spec.maxReplicas', int(spec.maxReplicas), 'must be greater than or equal to `minReplicas`'));
  }
  errs.push(...validateScaleTarget(spec.scaleTargetRef, 'spec.scaleTargetRef'));
  return errs;
}

/** formatHPAMetrics (v2 spec/status shapes). */
function targets(obj: KubeObject): string {
  const spec = o(obj.spec);
  const specs = a(spec.metrics);
  if (!specs.length) {
    // autoscaling/v1
    if (spec.targetCPUUtilizationPercentage === undefined) return '<none>';
    const cur = o(obj.status).currentCPUUtilizationPercentage;
    return `cpu: ${typeof cur === 'number' ? `${cur}%` : '<unknown>'}/${int(spec.targetCPUUtilizationPercentage)}%`;
  }
  const statuses = a(o(obj.status).currentMetrics);
  const list: string[] = [];
  specs.forEach((m, i) => {
    const st = statuses[i] ? o(statuses[i]) : undefined;
    switch (m.type) {
      case 'Resource':
      case 'ContainerResource': {
        const key = m.type === 'Resource' ? 'resource' : 'containerResource';
        const r = o(m[key]);
        const t = o(r.target);
        const cur = o(o(st?.[key]).current);
        if (t.averageValue !== undefined) list.push(`${str(r.name)}: ${cur.averageValue !== undefined ? str(cur.averageValue) : '<unknown>'}/${str(t.averageValue)}`);
        else list.push(`${str(r.name)}: ${typeof cur.averageUtilization === 'number' ? `${cur.averageUtilization}%` : '<unknown>'}/${typeof t.averageUtilization === 'number' ? `${t.averageUtilization}%` : '<auto>'}`);
        break;
      }
      case 'Pods': {
        const cur = o(o(st?.pods).current);
        list.push(`${cur.averageValue !== undefined ? str(cur.averageValue) : '<unknown>'}/${str(o(o(m.pods).target).averageValue)}`);
        break;
      }
      case 'Object':
      case 'External': {
        const key = m.type === 'Object' ? 'object' : 'external';
        const t = o(o(m[key]).target);
        const cur = o(o(st?.[key]).current);
        if (t.averageValue !== undefined) list.push(`${cur.averageValue !== undefined ? str(cur.averageValue) : '<unknown>'}/${str(t.averageValue)} (avg)`);
        else list.push(`${st?.[key] ? str(cur.value) : '<unknown>'}/${str(t.value)}`);
        break;
      }
      default:
        list.push('<unknown type>');
    }
  });
  if (list.length > 2) return `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...`;
  return list.join(', ');
}

const COLUMNS = [
  col('Reference', 'string', 'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.', (obj: KubeObject) => `${str(o(o(obj.spec).scaleTargetRef).kind)}/${str(o(o(obj.spec).scaleTargetRef).name)}`),
  col('Targets', 'string', 'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond.', (obj: KubeObject) => targets(obj)),
  col('MinPods', 'string', 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.', (obj: KubeObject) => {
    const v = o(obj.spec).minReplicas;
    return typeof v === 'number' ? String(v) : '<unset>';
  }),
  col('MaxPods', 'string', 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.', (obj: KubeObject) => int(o(obj.spec).maxReplicas)),
  col('Replicas', 'string', 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.', (obj: KubeObject) => int(o(obj.status).currentReplicas)),
  ageColumn(),
];

/** Both versions share one store; objects are stored as autoscaling/v2 (the real storage version). */
const conversion: VersionConversion = {
  storageGroup: 'autoscaling',
  storageResource: 'horizontalpodautoscalers',
  storageApiVersion: 'autoscaling/v2',
  convert: convertHorizontalPodAutoscaler,
};

export const horizontalpodautoscalers = builtin('autoscaling', 'v2', 'horizontalpodautoscalers', {
  default: defaultHPAv2,
  validateObject: (obj) => validateHPA(obj),
  tableColumns: COLUMNS,
  conversion,
}) satisfies ResourceDefinition;

export const horizontalpodautoscalersV1 = builtin('autoscaling', 'v1', 'horizontalpodautoscalers', {
  preferred: false,
  default: (obj) => {
    const spec = (obj.spec = o(obj.spec));
    if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
    zeroStatusFields(obj, ['currentReplicas', 'desiredReplicas']);
  },
  validateObject: (obj) => {
    const errs = validateHPA(obj);
    const t = o(obj.spec).targetCPUUtilizationPercentage;
    if (typeof t === 'number' && t < 1) errs.push(fieldErr.invalid('spec.targetCPUUtilizationPercentage', t, 'must be greater than 0'));
    return errs;
  },
  tableColumns: COLUMNS,
  conversion,
}) satisfies ResourceDefinition;
