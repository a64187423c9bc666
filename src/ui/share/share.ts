// Share links: the editor text and the settings that differ from the defaults, in the URL fragment as
// `#scenario/<base64url(deflate-raw(JSON))>`. Older forms keep decoding: `#yaml/<base64url(UTF-8)>`
// (uncompressed text only). Without a fragment the last local session (localStorage) is restored.
// Pure: the fragment, storage value and compression streams are passed in or are web standards.

export const SCENARIO_PREFIX = '#scenario/';
const LEGACY_PREFIXES = ['#yaml/'];
export const SESSION_KEY = 'kube-playground:session';

export interface Scenario {
  /** the manifest editor's text */
  text: string;
  /** settings that differ from the defaults (field manager, dry run, theme, ...) */
  settings: Record<string, string | boolean>;
}

export function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(s: string): Uint8Array {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** Only the settings that differ from `defaults`. */
export function changedSettings<T extends Record<string, string | boolean>>(settings: T, defaults: T): Partial<T> {
  const out: Partial<T> = {};
  for (const k of Object.keys(settings) as (keyof T)[]) if (settings[k] !== defaults[k]) out[k] = settings[k];
  return out;
}

/** The fragment (with its `#`) for a scenario. */
export async function encodeScenario(s: Scenario): Promise<string> {
  const json = JSON.stringify(Object.keys(s.settings).length ? { t: s.text, s: s.settings } : { t: s.text });
  const packed = await pipe(new TextEncoder().encode(json), new CompressionStream('deflate-raw'));
  return SCENARIO_PREFIX + toBase64Url(packed);
}

/** The scenario in a fragment, or undefined (no scenario there, or it does not decode). */
export async function decodeScenario(hash: string): Promise<Scenario | undefined> {
  try {
    if (hash.startsWith(SCENARIO_PREFIX)) {
      const raw = await pipe(fromBase64Url(hash.slice(SCENARIO_PREFIX.length)), new DecompressionStream('deflate-raw'));
      const v = JSON.parse(new TextDecoder().decode(raw)) as { t?: unknown; s?: unknown };
      if (typeof v.t !== 'string') return undefined;
      const settings = v.s && typeof v.s === 'object' && !Array.isArray(v.s) ? (v.s as Scenario['settings']) : {};
      return { text: v.t, settings };
    }
    for (const prefix of LEGACY_PREFIXES) {
      if (hash.startsWith(prefix)) {
        return { text: new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(hash.slice(prefix.length))), settings: {} };
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The session kept in localStorage (JSON of a Scenario), or undefined. */
export function parseSession(stored: string | null): Scenario | undefined {
  if (!stored) return undefined;
  try {
    const v = JSON.parse(stored) as Partial<Scenario>;
    if (typeof v.text !== 'string') return undefined;
    return { text: v.text, settings: v.settings && typeof v.settings === 'object' ? v.settings : {} };
  } catch {
    return undefined;
  }
}

export type ScenarioSource = 'link' | 'session' | 'default';

/** What the editor starts with: the link's scenario, else the last local session, else the default. */
export async function initialScenario(
  hash: string,
  stored: string | null,
  fallback: Scenario,
): Promise<{ scenario: Scenario; source: ScenarioSource; warning?: string }> {
  const fromLink = await decodeScenario(hash);
  if (fromLink) return { scenario: fromLink, source: 'link' };
  const session = parseSession(stored);
  const broken = hash.startsWith(SCENARIO_PREFIX) || LEGACY_PREFIXES.some((p) => hash.startsWith(p));
  const warning = broken ? 'The shared link could not be decoded; the last session is shown instead.' : undefined;
  if (session) return { scenario: session, source: 'session', warning };
  return { scenario: fallback, source: 'default', warning };
}

/** The URL of a page with the fragment replaced (for the share button). */
export function shareUrl(href: string, fragment: string): string {
  const hash = href.indexOf('#');
  return (hash < 0 ? href : href.slice(0, hash)) + fragment;
}
