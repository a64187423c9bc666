// pods/ephemeralcontainers and pods/resize: updates of one part of the pod spec. As the real strategies do
// (dropNonEphemeralContainerUpdates, dropNonResizeUpdates), the pod is the stored one with only that part
// taken from the request; ValidatePodEphemeralContainersUpdate and ValidatePodResize's rules a user meets.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { StrategyContext } from '../../registry/types.js';
import { isDNS1123Label } from '../../util/validation.js';
import { jsonEqual } from '../common/json.js';
import { a, o, str } from '../common/printers.js';
import { podQOS } from '../common/pod.js';

type Obj = Record<string, unknown>;

/** The stored pod with only what the subresource may change taken from `obj`. */
export function preparePodSubresource(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void {
  if (ctx.subresource !== 'ephemeralcontainers' && ctx.subresource !== 'resize') return;
  const next = structuredClone(old) as KubeObject;
  const spec = o(next.spec);
  const asked = o(obj.spec);
  if (ctx.subresource === 'ephemeralcontainers') {
    if (asked.ephemeralContainers === undefined) delete spec.ephemeralContainers;
    else spec.ephemeralContainers = structuredClone(asked.ephemeralContainers);
  } else {
    // resources and resizePolicy of the containers (and of restartable init containers), matched by name
    for (const list of ['containers', 'initContainers']) {
      const wanted = new Map(a(asked[list]).map((c) => [str(c.name), c]));
      for (const c of a(spec[list])) {
        if (list === 'initContainers' && c.restartPolicy !== 'Always') continue;
        const w = wanted.get(str(c.name));
        if (!w) continue;
        for (const f of ['resources', 'resizePolicy']) {
          if (w[f] === undefined) delete c[f];
          else c[f] = structuredClone(w[f]);
        }
      }
    }
  }
  next.spec = spec;
  // what the request and the field manager set on metadata stays theirs
  next.metadata = { ...old.metadata, managedFields: obj.metadata?.managedFields, resourceVersion: obj.metadata?.resourceVersion };
  if (next.metadata.managedFields === undefined) delete next.metadata.managedFields;
  for (const k of Object.keys(obj)) delete (obj as Obj)[k];
  Object.assign(obj, next);
}

const EPHEMERAL_FORBIDDEN = ['ports', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resources'];

function validateEphemeral(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const p = 'spec.ephemeralContainers';
  const now = a(o(obj.spec).ephemeralContainers);
  const before = a(o(old.spec).ephemeralContainers);
  // ephemeral containers are added, never changed or removed
  for (const b of before) {
    const n = now.find((c) => c.name === b.name);
    if (!n) errs.push(fieldErr.forbidden(p, `existing ephemeral containers ${JSON.stringify(str(b.name))} may not be removed\n`));
    else if (!jsonEqual(n, b)) errs.push(fieldErr.forbidden(p, `existing ephemeral containers ${JSON.stringify(str(b.name))} may not be changed\n`));
  }
  const spec = o(obj.spec);
  const others = new Set([...a(spec.containers), ...a(spec.initContainers)].map((c) => str(c.name)));
  const seen = new Set<string>();
  now.forEach((c, i) => {
    if (before.some((b) => b.name === c.name)) {
      seen.add(str(c.name));
      return;
    }
    const at = `${p}[${i}]`;
    const name = str(c.name);
    if (!name) errs.push(fieldErr.required(`${at}.name`, ''));
    else for (const m of isDNS1123Label(name)) errs.push(fieldErr.invalid(`${at}.name`, name, m));
    if (name && (others.has(name) || seen.has(name))) errs.push(fieldErr.duplicate(`${at}.name`, name));
    seen.add(name);
    if (!str(c.image)) errs.push(fieldErr.required(`${at}.image`, ''));
    for (const f of EPHEMERAL_FORBIDDEN) {
      const v = c[f];
      const empty = v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as Obj).length === 0);
      if (!empty) errs.push(fieldErr.forbidden(`${at}.${f}`, 'cannot be set for an Ephemeral Container'));
    }
  });
  return errs;
}

const MUTABLE_RESOURCES = ['cpu', 'memory'];

function validateResize(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const before = new Map(a(o(old.spec).containers).map((c) => [str(c.name), c]));
  a(o(obj.spec).containers).forEach((c, i) => {
    const b = before.get(str(c.name));
    if (!b) return;
    for (const part of ['requests', 'limits']) {
      const now = o(o(c.resources)[part]);
      const was = o(o(b.resources)[part]);
      const keys = new Set([...Object.keys(now), ...Object.keys(was)]);
      for (const k of keys) {
        if (!MUTABLE_RESOURCES.includes(k) && now[k] !== was[k]) {
          errs.push(fieldErr.forbidden(`spec.containers[${i}].resources.${part}[${k}]`, 'only cpu and memory resources are mutable'));
        }
      }
    }
  });
  if (podQOS(o(obj.spec)) !== podQOS(o(old.spec))) errs.push(fieldErr.forbidden('spec', 'Pod QOS Class may not change as a result of resizing'));
  return errs;
}

export function validatePodSubresourceChange(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
  if (ctx.subresource === 'ephemeralcontainers') return validateEphemeral(obj, old);
  if (ctx.subresource === 'resize') return validateResize(obj, old);
  return [];
}
