// Conversion between core v1 Events and events.k8s.io/v1 Events (the real server stores both in one place
// and renames fields): involvedObject<->regarding, message<->note, source<->deprecatedSource,
// firstTimestamp<->deprecatedFirstTimestamp, lastTimestamp<->deprecatedLastTimestamp, count<->deprecatedCount,
// reportingComponent<->reportingController.

import type { KubeObject } from '../../object.js';
import type { VersionConversion } from '../../registry/conversion.js';

const CORE_TO_V1: [string, string][] = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reportingComponent', 'reportingController'],
];

function rename(obj: KubeObject, pairs: [string, string][], apiVersion: string): KubeObject {
  const out: KubeObject = {};
  const map = new Map(pairs);
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'apiVersion') out.apiVersion = apiVersion;
    else out[map.get(k) ?? k] = JSON.parse(JSON.stringify(v ?? null));
  }
  if (!out.apiVersion) out.apiVersion = apiVersion;
  return out;
}

export function eventToEventsV1(core: KubeObject): KubeObject {
  return rename(core, CORE_TO_V1, 'events.k8s.io/v1');
}

export function eventToCore(v1: KubeObject): KubeObject {
  return rename(v1, CORE_TO_V1.map(([a, b]) => [b, a]), 'v1');
}

/**
 * Both forms live in one store, in core v1 (the real server keeps events.k8s.io Events under the core
 * events' storage prefix).
 */
export const EVENT_CONVERSION: VersionConversion = {
  storageGroup: '',
  storageResource: 'events',
  storageApiVersion: 'v1',
  convert: (obj, apiVersion) => {
    if (obj.apiVersion === apiVersion) return JSON.parse(JSON.stringify(obj)) as KubeObject;
    return apiVersion === 'events.k8s.io/v1' ? eventToEventsV1(obj) : eventToCore(obj);
  },
};
