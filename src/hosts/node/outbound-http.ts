// The Node host's outgoing HTTP for admission webhooks (the engine's Env.http): a POST over https (or http)
// with the webhook's caBundle as the trusted roots, failures worded as Go's HTTP client words them so the
// engine's "failed calling webhook" messages read like the real server's.
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { OutboundHttp } from '../../engine/env.js';

function goReason(e: NodeJS.ErrnoException, url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = url.hostname.startsWith('[') ? url.hostname : url.hostname;
  switch (e.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${host}:${port}: connect: connection refused`;
    case 'ENOTFOUND':
      return `dial tcp: lookup ${host}: no such host`;
    case 'EHOSTUNREACH':
      return `dial tcp ${host}:${port}: connect: no route to host`;
    default:
      return e.message;
  }
}

export function nodeOutboundHttp(): OutboundHttp {
  return {
    post(target, body, opts) {
      return new Promise((resolve, reject) => {
        const url = new URL(target);
        const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
        const req = send(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, */*', 'Content-Length': Buffer.byteLength(body) },
          ...(opts.caBundle ? { ca: opts.caBundle } : {}),
          timeout: opts.timeoutMs,
        }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', (e) => reject(new Error(e.message)));
        });
        req.on('timeout', () => req.destroy(Object.assign(new Error('context deadline exceeded'), { code: 'ETIMEDOUT_WEBHOOK' })));
        req.on('error', (e: NodeJS.ErrnoException) => reject(new Error(e.code === 'ETIMEDOUT_WEBHOOK' ? 'context deadline exceeded' : goReason(e, url))));
        req.end(body);
      });
    },
  };
}
