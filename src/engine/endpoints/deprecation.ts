// The deprecation warning of a served version: every request to a resource of a deprecated version
// (get, list, watch, create, update, patch, delete, subresources) carries its Warning header, success or
// failure, ahead of the handler's own warnings, as the real server adds it to the request before the
// handler runs (apiextensions crdHandler; the deprecation filter of built-in APIs).

import type { ResourceDefinition } from '../registry/types.js';
import { headerValue, warningHeader, warningHeaders, warningTextsOf } from './responders.js';
import { carryResponseObject } from '../audit/log.js';
import { EngineResponse, WireHeaders } from './wire.js';

/** Splits a combined Warning header (`299 - "a", 299 - "b"`) into its values. */
function warningValues(combined: string | null): string[] {
  if (!combined) return [];
  return combined.split(/(?<=")\s*,\s*(?=\d{3} )/);
}

/**
 * The response with the definition's deprecation warning first among its Warning headers, written under the
 * recorder's rule with the handler's warnings (the real server records it first in the same recorder): a
 * handler text equal to it is not written again, and it counts toward the 4,096 characters.
 */
export function withDeprecationWarning(def: ResourceDefinition, res: EngineResponse): EngineResponse {
  const text = def.deprecated;
  if (!text) return res;
  const headers = new WireHeaders();
  res.headers.forEach((v, k) => {
    if (k.toLowerCase() !== 'warning') headers.append(k, v);
  });
  const texts = warningTextsOf(res);
  if (texts) {
    for (const h of warningHeaders([text, ...texts])) headers.append('Warning', headerValue(h));
  } else {
    // a response not written by respond() (none carries warnings today): its values as they are, after ours
    const h = warningHeader(text);
    const first = h === undefined ? undefined : headerValue(h);
    if (first !== undefined) headers.append('Warning', first);
    for (const w of warningValues(res.headers.get('warning'))) if (w !== first) headers.append('Warning', w);
  }
  return carryResponseObject(res, new EngineResponse(res.body, { status: res.status, statusText: res.statusText, headers }));
}
