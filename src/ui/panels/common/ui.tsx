// Shared pieces of the panels: a fixed-row virtual list, JSON over the store's logged fetch, and small
// formatting helpers. Everything reaches the engine through `store.fetch` (STYLE.md layering 4).
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { usePlayground, type PlaygroundStore } from '../../playground.js';
import { computeWindow, isAtBottom } from './virtual.js';
import './panels.css';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

/** GET/POST JSON through the store; throws HttpError with the Status message on an error response. */
export async function fetchJson<T>(
  store: PlaygroundStore,
  path: string,
  source: string,
  init: RequestInit = {},
): Promise<T> {
  const headers = new Headers(init.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const res = await store.fetch(path, { ...init, headers }, source);
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new HttpError(res.status, `${res.status} ${typeof message === 'string' ? message : text.slice(0, 300) || res.statusText}`, body);
  }
  return body as T;
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** `12s`, `5m`, `3h`, `2d` like kubectl's AGE. */
export function ageText(iso: string | undefined, now = Date.now()): string {
  if (!iso) return '';
  const s = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

export function clockText(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/**
 * A list of `count` rows of `rowHeight` px drawn only where visible (computeWindow). With `follow`, it
 * stays at the bottom as rows are added, unless the user scrolled up.
 */
export function VirtualList(props: {
  count: number;
  rowHeight: number;
  height: number | string;
  renderRow: (index: number) => ReactNode;
  follow?: boolean;
  label: string;
  testId?: string;
}) {
  const { count, rowHeight, height, renderRow, follow, label, testId } = props;
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(400);
  const stick = useRef(true);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setViewport(el.clientHeight);
    const ro = new ResizeObserver(() => setViewport(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !follow || !stick.current) return;
    const target = Math.max(0, count * rowHeight - el.clientHeight);
    if (el.scrollTop !== target) {
      el.scrollTop = target;
      setScrollTop(target);
    }
  }, [count, follow, rowHeight]);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    stick.current = isAtBottom(el.scrollTop, el.clientHeight, count * rowHeight, rowHeight);
    setScrollTop(el.scrollTop);
  }, [count, rowHeight]);

  const w = computeWindow(scrollTop, viewport, rowHeight, count, 6);
  const rows: ReactNode[] = [];
  for (let i = w.start; i < w.end; i++) rows.push(renderRow(i));
  return (
    <div
      ref={ref}
      className="vlist"
      style={{ height }}
      onScroll={onScroll}
      role="listbox"
      aria-label={label}
      data-testid={testId}
      tabIndex={0}
    >
      <div style={{ height: w.totalHeight, position: 'relative' }}>
        <div style={{ position: 'absolute', top: w.offsetTop, left: 0, right: 0 }}>{rows}</div>
      </div>
    </div>
  );
}

/** Re-renders at most once per animation frame when `bump` is called (for high-rate streams). */
export function useFrameTick(): [number, () => void] {
  const [tick, setTick] = useState(0);
  const pending = useRef(false);
  const bump = useCallback(() => {
    if (pending.current) return;
    pending.current = true;
    requestAnimationFrame(() => {
      pending.current = false;
      setTick((t) => t + 1);
    });
  }, []);
  return [tick, bump];
}

/** Runs `fn` every `ms` while mounted. */
export function useInterval(fn: () => void, ms: number | undefined): void {
  const saved = useRef(fn);
  saved.current = fn;
  useEffect(() => {
    if (!ms) return;
    const id = setInterval(() => saved.current(), ms);
    return () => clearInterval(id);
  }, [ms]);
}

/** The frame's theme, set as `data-theme` on each panel's root so the panel styles follow it. */
export function usePanelTheme(): string {
  return usePlayground((s) => s.theme);
}
