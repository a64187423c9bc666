// Which requests the app-shell cache of the service worker handles, and what it precaches.
import { describe, expect, it } from 'vitest';
import { addAppRoutes, APP_CACHE, appRoutes, classify, entryUrls, precacheUrls, SHELL_FILES, type RouterRule } from './app-cache.js';

const base = new URL('https://play.example/app/');
const at = (path: string) => new URL(path, 'https://play.example');

describe('app-shell cache', () => {
  it('never handles the API under <app base>clusters/, whatever the method', () => {
    for (const path of ['/app/clusters', '/app/clusters/default', '/app/clusters/default/api/v1/namespaces?watch=1', '/app/clusters/x/apis']) {
      expect(classify(at(path), 'GET', base)).toBe('api');
      expect(classify(at(path), 'POST', base)).toBe('api');
    }
  });

  it('keeps hashed assets and other app files; ignores other origins, other paths, writes and dev internals', () => {
    expect(classify(at('/app/assets/index-abc123.js'), 'GET', base)).toBe('hashed');
    expect(classify(at('/app/'), 'GET', base)).toBe('shell');
    expect(classify(at('/app/?cluster=demo'), 'GET', base)).toBe('shell');
    expect(classify(at('/app/manifest.webmanifest'), 'GET', base)).toBe('shell');
    expect(classify(at('/app/icons/icon-192.png'), 'GET', base)).toBe('shell');
    expect(classify(new URL('https://cdn.example/app/x.js'), 'GET', base)).toBe('ignore');
    expect(classify(at('/other/index.html'), 'GET', base)).toBe('ignore');
    expect(classify(at('/app/manifest.webmanifest'), 'POST', base)).toBe('ignore');
    expect(classify(at('/app/sw.js'), 'GET', base)).toBe('ignore');
    expect(classify(at('/app/sw-first.js'), 'GET', base)).toBe('ignore');
    expect(classify(at('/app/@vite/client'), 'GET', base)).toBe('ignore');
    expect(classify(at('/app/src/ui/main.tsx'), 'GET', base)).toBe('ignore');
    expect(classify(at('/app/node_modules/.vite/deps/react.js'), 'GET', base)).toBe('ignore');
  });

  it('precaches every chunk, stylesheet and asset of the build manifest plus the public shell files', () => {
    const manifest = {
      'index.html': { file: 'assets/index-a1.js', src: 'index.html', isEntry: true, css: ['assets/index-b2.css'], imports: ['_vendor-c3.js'] },
      '_vendor-c3.js': { file: 'assets/vendor-c3.js' },
      'src/ui/panels/cel/index.tsx': { file: 'assets/index-d4.js', isDynamicEntry: true, assets: ['assets/codicon-e5.ttf'] },
    };
    const urls = precacheUrls(manifest, base);
    expect(urls).toEqual([
      ...SHELL_FILES.map((f) => `https://play.example/app/${f}`),
      'https://play.example/app/assets/index-a1.js',
      'https://play.example/app/assets/index-b2.css',
      'https://play.example/app/assets/vendor-c3.js',
      'https://play.example/app/assets/index-d4.js',
      'https://play.example/app/assets/codicon-e5.ttf',
    ]);
    // without a manifest (the dev server): the shell files only
    expect(precacheUrls(undefined, base)).toEqual(SHELL_FILES.map((f) => `https://play.example/app/${f}`));
  });

  it('precaches the page and the entry chunk with its static imports and CSS first, not the dynamic chunks', () => {
    const manifest = {
      'index.html': { file: 'assets/index-a1.js', src: 'index.html', isEntry: true, css: ['assets/index-b2.css'], imports: ['_vendor-c3.js'], dynamicImports: ['src/ui/panels/cel/index.tsx'] },
      '_vendor-c3.js': { file: 'assets/vendor-c3.js', imports: ['index.html'] },
      'src/ui/panels/cel/index.tsx': { file: 'assets/index-d4.js', isDynamicEntry: true },
    };
    expect(entryUrls(manifest, base)).toEqual([
      'https://play.example/app/',
      'https://play.example/app/assets/index-a1.js',
      'https://play.example/app/assets/index-b2.css',
      'https://play.example/app/assets/vendor-c3.js',
    ]);
    expect(entryUrls(undefined, base)).toEqual(['https://play.example/app/']);
  });

  it('static routes: the API to the worker first, hashed files from the app cache, navigations raced; base paths matched literally', () => {
    expect(appRoutes(base)).toEqual([
      { condition: { urlPattern: { pathname: '/app/clusters' } }, source: 'fetch-event' },
      { condition: { urlPattern: { pathname: '/app/clusters/*' } }, source: 'fetch-event' },
      { condition: { urlPattern: { pathname: '/app/assets/*' } }, source: { cacheName: APP_CACHE } },
      { condition: { requestMode: 'navigate' }, source: 'race-network-and-fetch-handler' },
    ]);
    const odd = appRoutes(new URL('https://play.example/a:b(c)*/'));
    expect(odd[2].condition.urlPattern?.pathname).toBe('/a\\:b\\(c\\)\\*/assets/*');
  });

  it('adds the routes only where the install event has addRoutes, and a refused rule set never fails the install', async () => {
    const waited: Promise<unknown>[] = [];
    const added: RouterRule[][] = [];
    const event = {
      waitUntil: (p: Promise<unknown>) => void waited.push(p),
      addRoutes: (rules: RouterRule[]) => {
        added.push(rules);
        return Promise.reject(new TypeError('unknown source'));
      },
    };
    addAppRoutes(event as unknown as ExtendableEvent, base);
    expect(added).toEqual([appRoutes(base)]);
    await expect(Promise.all(waited)).resolves.toEqual([undefined]);

    const throwing = { waitUntil: () => undefined, addRoutes: () => { throw new TypeError('sync'); } };
    expect(() => addAppRoutes(throwing as unknown as ExtendableEvent, base)).not.toThrow();
    const without = { waitUntil: (p: Promise<unknown>) => void waited.push(p) };
    addAppRoutes(without as unknown as ExtendableEvent, base);
    expect(waited).toHaveLength(1);
  });
});
