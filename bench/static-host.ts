// The build served as a static host serves one: each compressible file gzip-compressed once, before the
// run, and sent as it is to clients that accept gzip (nginx's gzip_static, what GitHub Pages and CDNs do).
// `vite preview` compresses every response again as it sends it, in the harness's own process on the same
// two cores the browser measures on: 30-64 ms per fetch of the 1.3 MB sw.js on this machine (5 ms sent
// uncompressed). A Vite plugin for preview(): its middleware answers before Vite's own compression, files
// it does not hold go on to Vite (sirv, the SPA fallback).
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain',
};

interface Entry {
  gz: Buffer;
  type: string;
  etag: string;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const d of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

export function precompressed(outDir: string): Plugin {
  let entries: Map<string, Entry> | undefined;
  const load = async () => {
    const m = new Map<string, Entry>();
    for (const file of await filesUnder(outDir)) {
      const ext = file.slice(file.lastIndexOf('.'));
      const type = TYPES[ext];
      if (!type) continue;
      const body = await readFile(file);
      const url = '/' + relative(outDir, file).split('\\').join('/');
      m.set(url, { gz: gzipSync(body), type: `${type}${type.startsWith('text/') || type.endsWith('json') ? ';charset=utf-8' : ''}`, etag: `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"` });
      if (url === '/index.html') m.set('/', m.get(url)!);
    }
    return m;
  };
  return {
    name: 'bench:precompressed',
    async configurePreviewServer(server) {
      entries = await load();
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '/').split('?')[0];
        const e = entries!.get(path);
        if (!e || (req.method !== 'GET' && req.method !== 'HEAD') || !/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return next();
        res.setHeader('Cache-Control', 'no-cache');
        res.setHeader('ETag', e.etag);
        res.setHeader('Vary', 'Accept-Encoding');
        if (req.headers['if-none-match'] === e.etag) {
          res.statusCode = 304;
          res.end();
          return;
        }
        res.setHeader('Content-Type', e.type);
        res.setHeader('Content-Encoding', 'gzip');
        res.setHeader('Content-Length', String(e.gz.length));
        res.end(req.method === 'HEAD' ? undefined : e.gz);
      });
    },
  };
}
