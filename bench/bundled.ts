// The engine as it ships: bundled by esbuild without the name-keeping wrappers that tsx adds to every
// function when it runs TypeScript directly (those wrappers cost a property definition per closure made,
// which shipped code never pays). Benchmarks that compare us with precompiled peers load the engine from here.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const cache = new Map<string, Promise<unknown>>();

/** Bundles `entry` (a path from the repository root) to ESM for Node and imports it. */
export function importBundled<T>(entry: string): Promise<T> {
  let p = cache.get(entry);
  if (!p) {
    p = (async () => {
      // one folder per working tree: worktrees that share node_modules must never import each other's build
      const tree = createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12);
      const dir = resolve('node_modules/.cache/bench-bundled', tree);
      mkdirSync(dir, { recursive: true });
      const outfile = resolve(dir, entry.replace(/[^a-zA-Z0-9]+/g, '_') + '.mjs');
      await build({ entryPoints: [resolve(entry)], bundle: true, format: 'esm', platform: 'node', target: 'es2022', outfile, logLevel: 'silent', packages: 'external' });
      return import(pathToFileURL(outfile).href);
    })();
    cache.set(entry, p);
  }
  return p as Promise<T>;
}

/** A request through an engine's handle(), its body read to the end; a status of 300 or more throws. */
export function textCaller(api: { handle(r: Request): Promise<Response> }) {
  // named, so that bench/steps.ts charges its own time (the body's JSON.stringify, the caller's awaits) to the harness
  const benchTextCall = async (method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<string> => {
    const r = await api.handle(new Request('http://bench' + path, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'Content-Type': contentType, 'User-Agent': 'bench/1' } }));
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 200)}`);
    return text;
  };
  return benchTextCall;
}
