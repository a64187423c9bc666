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


/** Where `npm run serve` answers by default (its kubeconfig's server). */
export const NODE_HOST_URL = 'http://127.0.0.1:8080';

/** Headers a command outside the browser should not repeat: the browser's own, and the write's retry key. */
const BROWSER_ONLY = new Set(['idempotency-key', 'origin', 'referer', 'user-agent', 'cookie']);

/**
 * "Copy as curl": the base_url of a browser cluster is answered by the page's service worker (or the page
 * itself), so nothing outside this browser can reach it. The command targets the Node host instead, the
 * same API on 127.0.0.1 (a separate cluster), and says so.
 */
export function curlForNodeHost(req: Pick<LoggedRequest, 'method' | 'path' | 'requestHeaders' | 'requestBody'>): { command: string; note: string } {
  const headers = req.requestHeaders.filter(([k]) => !BROWSER_ONLY.has(k.toLowerCase()));
  return {
    command: toCurl({ ...req, requestHeaders: headers }, NODE_HOST_URL),
    note:
      `for the Node host (npm run serve, ${NODE_HOST_URL}): this page's base_url is answered inside this browser only, ` +
      'so curl cannot reach it; the Node host is a separate cluster with the same API.',
  };
}
