// TEMPORARY seam while the codec, patch, merge, prune and openapi modules land in parallel: the handlers
// import these functions from here. Each is replaced by a re-export of the real module as it lands.
import { load } from 'js-yaml';
import { badRequest } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';
import type { ResourceDefinition } from '../registry/types.js';

export function decodeBody(bytes: Uint8Array | string, mediaType: 'json' | 'yaml'): { value: unknown; duplicates: string[] } {
  const text = typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes);
  try {
    return { value: mediaType === 'json' ? JSON.parse(text) : load(text), duplicates: [] };
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
}
export function applyJsonPatch(doc: unknown, _patch: unknown): unknown { return doc; }
export function applyMergePatch(doc: unknown, _patch: unknown): unknown { return doc; }
export function applyStrategicMergePatch(doc: unknown, _patch: unknown, _s: Schema, _d: SchemaRegistry): unknown { return doc; }
export type ObjectType = unknown;
export function objectTypeFor(_s: Schema, _d: SchemaRegistry, _o?: { customResource?: boolean }): ObjectType { return null; }
export function updateManagedFields(_t: ObjectType, _live: KubeObject | null, next: KubeObject, _o: unknown): KubeObject { return next; }
export function applyPatch(_t: ObjectType, live: KubeObject | null, config: KubeObject, _o: unknown): KubeObject { return { ...(live ?? {}), ...config }; }
export function findUnknownFields(_o: unknown, _s: Schema, _d: SchemaRegistry, _x?: unknown): string[] { return []; }
export function pruneUnknownFields(o: unknown, _s: Schema, _d: SchemaRegistry, _x?: unknown): unknown { return o; }
export function fieldValidationResult(_u: string[], _d: string[], _l: string, _k: unknown): { warnings: string[] } | Error { return { warnings: [] }; }
export function checkTypes(_o: unknown, _s: Schema, _d: SchemaRegistry, _k: unknown): Error | undefined { return undefined; }
export function checkRequired(_o: unknown, _s: Schema, _d: SchemaRegistry): never[] { return []; }
export function buildOpenAPIV2(_r: ResourceDefinition[]): object { return { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.33.0' }, paths: {}, definitions: {} }; }
export function buildOpenAPIV3Discovery(_r: ResourceDefinition[]): object { return { paths: {} }; }
export function buildOpenAPIV3GroupVersion(_r: ResourceDefinition[], _gv: string): object | undefined { return undefined; }
