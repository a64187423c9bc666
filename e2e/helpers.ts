// Shared helpers for the browser specs.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

/** Skips the calling spec file when playwright.config.ts found no Chromium (it fails instead under CI=true). */
export function skipWithoutBrowser(): void {
  test.skip(Boolean(process.env.KUBE_E2E_SKIP), process.env.KUBE_E2E_SKIP ?? '');
}

export const CORE_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

export interface WireResponse {
  status: number;
  contentType: string | null;
  contentEncoding: string | null;
  body: unknown;
  text: string;
}

/** `fetch` run inside the page (so it goes through the page's service worker), with the body read. */
export async function pageFetch(
  page: Page,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<WireResponse> {
  return page.evaluate(
    async ({ url, init }) => {
      const res = await fetch(url, init);
      const text = await res.text();
      let body: unknown = undefined;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return {
        status: res.status,
        contentType: res.headers.get('content-type'),
        contentEncoding: res.headers.get('content-encoding'),
        body,
        text,
      };
    },
    { url, init },
  );
}

/** Like pageFetch, through the shell's `playground.apiFetch` (works with the in-page engine too). */
export async function shellFetch(
  page: Page,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<WireResponse> {
  return page.evaluate(
    async ({ path, init }) => {
      const res = await window.playground.apiFetch(path, init);
      const text = await res.text();
      let body: unknown = undefined;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return {
        status: res.status,
        contentType: res.headers.get('content-type'),
        contentEncoding: res.headers.get('content-encoding'),
        body,
        text,
      };
    },
    { path, init },
  );
}

/** Opens the shell at `path` and waits until it is connected to an engine. */
export async function openShell(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByTestId('engine-mode')).toBeVisible();
}

export function configMap(name: string, data: Record<string, string>): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
}

export function names(list: unknown): string[] {
  const items = (list as { items?: { metadata?: { name?: string } }[] } | undefined)?.items ?? [];
  return items.map((i) => i.metadata?.name ?? '').sort();
}

/** Waits until the editor's local session (saved 300 ms after the last edit) holds `text`. */
export async function sessionSaved(page: Page, text: string): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => (JSON.parse(localStorage.getItem('kube-playground:session') ?? '{}') as { text?: string }).text))
    .toBe(text);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.webmanifest': 'application/manifest+json', '.svg': 'image/svg+xml', '.png': 'image/png', '.wasm': 'application/wasm',
  '.ttf': 'font/ttf', '.woff': 'font/woff', '.woff2': 'font/woff2',
};

export interface ServedFolder {
  server: Server;
  origin: string;
  /** The paths asked for, in order. */
  requested: string[];
}

/**
 * A static server of `dir` (files read at every request, so a file replaced on disk is served at once), as a
 * static host serves a build. `headers` adds response headers by path (e.g. a Content-Security-Policy).
 */
export function serveFolder(dir: string, headers: (path: string) => Record<string, string> = () => ({})): Promise<ServedFolder> {
  const requested: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requested.push(path);
    const rel = normalize(path === '/' ? '/index.html' : path).replace(/^(\.\.[/\\])+/, '');
    let file = join(dir, rel);
    let body: Buffer;
    try {
      body = readFileSync(file);
    } catch {
      // the app's routes (and unknown paths) get the page, as vite preview answers them
      file = join(dir, 'index.html');
      body = readFileSync(file);
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache', ...headers(path) });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    resolve({ server, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, requested });
  }));
}
