// TEMPORARY seam: what is still stubbed while its module lands in parallel. The write path imports the real
// codec, patch, merge, prune and validate modules directly; only these remain here:
//  - decodeBody (a re-export of the real codec, imported by scope.ts),
//  - the OpenAPI documents (no openapi module yet), imported by api-server.ts.
import type { ResourceDefinition } from '../registry/types.js';

export { decodeBody } from '../codec/decode.js';
export function buildOpenAPIV2(_r: ResourceDefinition[]): object { return { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.33.0' }, paths: {}, definitions: {} }; }
export function buildOpenAPIV3Discovery(_r: ResourceDefinition[]): object { return { paths: {} }; }
export function buildOpenAPIV3GroupVersion(_r: ResourceDefinition[], _gv: string): object | undefined { return undefined; }
