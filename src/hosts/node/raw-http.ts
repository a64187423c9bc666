// Test support: one HTTP request sent exactly as written (node:http sends `path` verbatim: no dot-segment
// resolution, no `\` rewriting, no percent-decoding), with the answer's status, raw headers and body.
import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header name/value pairs as they came off the wire, values as latin1 (one char per byte). */
  rawHeaders: string[];
  body: string;
  json(): unknown;
}

export function rawRequest(
  port: number,
  method: string,
  path: string,
  opts: { body?: string | Uint8Array; headers?: Record<string, string>; setHost?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, headers: opts.headers ?? {}, setHost: opts.setHost ?? true, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, body, json: () => JSON.parse(body) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}
