// Vite build of the playground: the page (index.html -> src/ui/main.tsx) and, at a stable URL beside it,
// the service worker `<base>sw.js` (src/hosts/sw/sw.ts). The worker is bundled on its own into one classic
// script (no imports, no chunks shared with the page), both by `vite build` and on demand by `vite` dev.
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin, type ResolvedConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));
const SW_ENTRY = fileURLToPath(new URL('./src/hosts/sw/sw.ts', import.meta.url));
export const SW_FILE_NAME = 'sw.js';
/** The worker script of a first install: the same code as sw.js, compiled lazily (firstInstallWorker). */
export const SW_FIRST_FILE_NAME = 'sw-first.js';

/**
 * sw-first.js: the worker's code kept as text and run by an indirect eval (global scope, as a script).
 * Chromium compiles an installing worker's script eagerly (every function, for a full code cache), and a
 * first visit waits for that install: ~400 ms for the engine's 1.3 MB on the test machine. Code in a string
 * is compiled lazily, as a page's script is. But a string has no code cache, so every later start of such a
 * worker compiles what it runs again: the page moves the registration to the plain sw.js once it is hidden
 * (src/ui/api.ts; docs/hosts.md 1). Where a Content-Security-Policy refuses eval, sw.js is imported instead.
 */
function firstInstallWorker(code: string): string {
  const text = `${code}\n//# sourceURL=${SW_FIRST_FILE_NAME}.code\n`;
  return `(()=>{const code=${JSON.stringify(text)};try{(0,eval)(code)}catch(e){if(!(e instanceof EvalError))throw e;importScripts(${JSON.stringify(SW_FILE_NAME)})}})();\n`;
}

/**
 * Generated data modules whose one export is a JSON object literal. In the bundles it becomes `JSON.parse`
 * of a string: V8 scans a string literal much faster than it compiles an object literal, and Chromium
 * compiles a service worker's whole script eagerly when it installs it (the first visit waits for that).
 */
const JSON_DATA_MODULES = [{ file: '/src/engine/resources/generated/builtins.ts', declaration: 'export const builtins: BuiltinData = ' }];

/** Rewrites the JSON_DATA_MODULES' literals as `JSON.parse('...')`; the value is the same. */
function jsonDataPlugin(): Plugin {
  return {
    name: 'kube-playground:json-data',
    enforce: 'pre',
    transform(code, id) {
      const data = JSON_DATA_MODULES.find((m) => id.split('?')[0].endsWith(m.file));
      if (!data) return undefined;
      const at = code.indexOf(data.declaration);
      if (at < 0) return undefined;
      const literal = code.slice(at + data.declaration.length).trim().replace(/;$/, '');
      JSON.parse(literal); // throws (and fails the build) if the generator ever writes something else
      return { code: `${code.slice(0, at)}${data.declaration}JSON.parse(${JSON.stringify(literal)});\n`, map: null };
    },
  };
}

/** Bundles the service worker into a single self-contained script and returns its code. */
async function bundleServiceWorker(config: ResolvedConfig): Promise<string> {
  const output = await build({
    configFile: false,
    root: config.root,
    base: config.base,
    mode: config.mode,
    logLevel: 'warn',
    publicDir: false,
    // The worker sees the page's aliases and defines, but none of its plugins (only the data rewrite).
    plugins: [jsonDataPlugin()],
    resolve: { alias: config.resolve.alias },
    define: config.define,
    build: {
      write: false,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: config.command === 'build',
      sourcemap: config.command === 'build' ? false : 'inline',
      modulePreload: false,
      rolldownOptions: {
        input: SW_ENTRY,
        output: { format: 'iife', entryFileNames: SW_FILE_NAME },
      },
    },
  });
  const outputs = Array.isArray(output) ? output : [output];
  for (const out of outputs) {
    if (!('output' in out)) continue;
    for (const item of out.output) {
      if (item.type === 'chunk' && item.isEntry) return item.code;
    }
  }
  throw new Error('service worker bundle: no entry chunk produced');
}

/** Serves `<base>sw.js` in dev (rebuilt after source changes) and emits it into the build output. */
function serviceWorkerPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'kube-playground:service-worker',
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      let cached: Promise<string> | undefined;
      const invalidate = (file: string) => {
        if (file.includes('/src/')) cached = undefined;
      };
      server.watcher.on('change', invalidate);
      server.watcher.on('add', invalidate);
      server.watcher.on('unlink', invalidate);
      // both worker scripts are the plain code in dev (with its source map): no install is timed there
      const urls = [SW_FILE_NAME, SW_FIRST_FILE_NAME].map((f) => `${config.base}${f}`);
      server.middlewares.use((req, res, next) => {
        if (!urls.includes(req.url?.split('?')[0] ?? '')) return next();
        cached ??= bundleServiceWorker(config).catch((err: unknown) => {
          cached = undefined;
          throw err;
        });
        cached.then(
          (code) => {
            res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
            res.setHeader('Cache-Control', 'no-cache');
            res.end(code);
          },
          (err: unknown) => next(err),
        );
      });
    },
    async generateBundle() {
      // Runs for the page build only: the nested worker build has no plugins.
      const source = await bundleServiceWorker(config);
      this.emitFile({ type: 'asset', fileName: SW_FILE_NAME, source });
      this.emitFile({ type: 'asset', fileName: SW_FIRST_FILE_NAME, source: firstInstallWorker(source) });
    },
  };
}

// KUBE_E2E_PAGES=1 adds the browser test pages under e2e/pages/ (used only by Playwright's own build).
const e2ePages = process.env.KUBE_E2E_PAGES === '1';

export default defineConfig({
  root,
  base: process.env.KUBE_BASE ?? '/',
  plugins: [react(), jsonDataPlugin(), serviceWorkerPlugin()],
  build: {
    target: 'es2022',
    // Monaco's core is one ~4 MB chunk by design (loaded after the first paint): no size warning for it
    chunkSizeWarningLimit: 4500,
    manifest: 'build-manifest.json', // the chunks the service worker keeps for offline use (src/hosts/sw/app-cache.ts)
    rolldownOptions: {
      // no "plugin timings" report when a busy machine makes the build slow: it is not a problem of the build
      checks: { bundlerTimings: false },
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        ...(e2ePages
          ? {
              storage: fileURLToPath(new URL('./e2e/pages/storage-conformance.html', import.meta.url)),
              uiPanels: fileURLToPath(new URL('./e2e/pages/ui-panels.html', import.meta.url)),
            }
          : {}),
      },
    },
  },
  server: { port: 5173 },
  preview: { port: 4173 },
});
