// TEMPORARY seam while the codec, patch, merge, prune and openapi modules land in parallel: the handlers
// import these functions from here. Each is replaced by a re-export of the real module as it lands.
import type { KubeObject } from '../object.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';
import type { ResourceDefinition } from '../registry/types.js';

export { decodeBody } from '../codec/decode.js';
export function applyJsonPatch(doc: unknown, _patch: unknown): unknown { return doc; }
export function applyMergePatch(doc: unknown, _patch: unknown): unknown { return doc; }
export function applyStrategicMergePatch(doc: unknown, _patch: unknown, _s: Schema, _d: SchemaRegistry): unknown { return doc; }
export { objectTypeFor, updateManagedFields, applyPatch, type ObjectType } from '../merge/index.js';
export { findUnknownFields, pruneUnknownFields, fieldValidationResult } from '../schema/prune.js';
export function checkTypes(_o: unknown, _s: Schema, _d: SchemaRegistry, _k: unknown): Error | undefined { return undefined; }
export function checkRequired(_o: unknown, _s: Schema, _d: SchemaRegistry): never[] { return []; }
export function buildOpenAPIV2(_r: ResourceDefinition[]): object { return { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.33.0' }, paths: {}, definitions: {} }; }
export function buildOpenAPIV3Discovery(_r: ResourceDefinition[]): object { return { paths: {} }; }
export function buildOpenAPIV3GroupVersion(_r: ResourceDefinition[], _gv: string): object | undefined { return undefined; }
