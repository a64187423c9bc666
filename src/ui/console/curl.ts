// A logged request as a curl command (the console's "Copy as curl"). Pure.
import type { LoggedRequest } from '../playground.js';

/** A logged request as a curl command line against base_url (single quotes escaped for POSIX shells). */
export function toCurl(req: Pick<LoggedRequest, 'method' | 'path' | 'requestHeaders' | 'requestBody'>, baseUrl: string): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl', '-X', req.method, q(baseUrl + req.path)];
  for (const [k, v] of req.requestHeaders) parts.push('-H', q(`${k}: ${v}`));
  if (req.requestBody !== undefined) parts.push('--data-binary', q(req.requestBody));
  return parts.join(' ');
}

