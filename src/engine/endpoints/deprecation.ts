// The deprecation warning of a served version: every request to a resource of a deprecated version
// (get, list, watch, create, update, patch, delete, subresources) carries its Warning header, success or
// failure, ahead of the handler's own warnings, as the real server adds it to the request before the
// handler runs (apiextensions crdHandler; the deprecation filter of built-in APIs).

import type { ResourceDefinition } from '../registry/types.js';
import { headerValue, warningHeader } from './responders.js';
import { carryResponseObject } from '../audit/log.js';
import { EngineResponse, WireHeaders } from './wire.js';

/** Splits a combined Warning header (`299 - "a", 299 - "b"`) into its values. */
function warningValues(combined: string | null): string[] {
  if (!combined) return [];
  return combined.split(/(?<=")\s*,\s*(?=\d{3} )/);
}

/** The response with the definition's deprecation warning first among its Warning headers. */
export function withDeprecationWarning(def: ResourceDefinition, res: EngineResponse): EngineResponse {
  const text = def.deprecated;
  if (!text) return res;
  const headers = new WireHeaders();
  res.headers.forEach((v, k) => {
    if (k.toLowerCase() !== 'warning') headers.append(k, v);
  });
  const h = warningHeader(text);
  if (h !== undefined) headers.append('Warning', headerValue(h));
  for (const w of warningValues(res.headers.get('warning'))) headers.append('Warning', w);
  return carryResponseObject(res, new EngineResponse(res.body, { status: res.status, statusText: res.statusText, headers }));
}
