// Shared helpers for the browser specs.
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
