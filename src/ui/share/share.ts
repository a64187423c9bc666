// Share links: the editor text and the settings that differ from the defaults, in the URL fragment as
// `#scenario/<base64url(deflate-raw(JSON))>`. Older forms keep decoding: `#yaml/<base64url(UTF-8)>`
// (uncompressed text only). Without a fragment the last local session (localStorage) is restored.
// Pure: the fragment, storage value and compression streams are passed in or are web standards.
//
// A link is untrusted input: it is decoded within a budget (the fragment's length, and the unpacked size,
// checked while the data is inflated in small steps, so a decompression bomb is stopped early instead of
// exhausting the tab's memory), and every way it can be wrong is named in a ShareLinkError.

import { parseActingUser, type ActingUser } from '../auth/identity.js';
import { concatBytes } from '../../engine/util/bytes.js';

export const SCENARIO_PREFIX = '#scenario/';
const LEGACY_PREFIXES = ['#yaml/'];
export const SESSION_KEY = 'kube-playground:session';

/** Longest fragment decoded (characters after the prefix); longer links are refused unread. */
export const MAX_LINK_CHARS = 1_000_000;
/** Largest unpacked scenario (bytes of JSON, or of text for the legacy form). */
export const MAX_SCENARIO_BYTES = 4 * 1024 * 1024;
/** Compressed bytes fed to the inflater at a time: one step can unpack to at most ~1 MiB (deflate's 1032:1). */
const INFLATE_STEP = 1024;

export type ShareLinkProblem = 'too-long' | 'base64' | 'compression' | 'too-large' | 'encoding' | 'json' | 'shape';

/** Why a share link cannot be opened; `message` is shown to the user. */
export class ShareLinkError extends Error {
  constructor(
    readonly problem: ShareLinkProblem,
    message: string,
  ) {
    super(message);
  }
}

export interface DecodeBudget {
  maxLinkChars: number;
  maxScenarioBytes: number;
}

const DEFAULT_BUDGET: DecodeBudget = { maxLinkChars: MAX_LINK_CHARS, maxScenarioBytes: MAX_SCENARIO_BYTES };

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) ? 1 : 0)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

export interface Scenario {
  /** the manifest editor's text */
  text: string;
  /** settings that differ from the defaults (field manager, dry run, theme, ...) */
  settings: Record<string, string | boolean>;
  /** the CEL panel's expression and variables (YAML text) */
  cel?: { expression: string; variables: string };
  /** the lesson and its (0-based) step */
  lesson?: { id: string; step: number };
  /** the acting user (impersonated: a user with groups, or a service account), when it is not the administrator */
  user?: Exclude<ActingUser, { kind: 'admin' }>;
  /** cluster objects to create, in order */
  objects?: Record<string, unknown>[];
}

/** Deepest nesting of the scenario's JSON accepted (objects included). */
export const MAX_DEPTH = 64;
/** Most cluster objects a link may carry. */
export const MAX_OBJECTS = 500;
/**
 * Links longer than this do not survive every chat app or mail client (many cut or refuse links past about
 * 2,000 characters): the share button says so and offers the link as a file, which Clusters > Import opens.
 */
export const CHAT_LINK_CHARS = 2000;

/** The nesting depth of a JSON value, stopping (and returning more than `limit`) past `limit`. */
export function jsonDepth(v: unknown, limit = MAX_DEPTH): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const c of Array.isArray(x) ? x : Object.values(x)) stack.push([c, d + 1]);
  }
  return max;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The acting user of a link: `{kind: 'user', name, groups}` or `{kind: 'serviceaccount', namespace, name}`
 * (checked as a stored choice is), or a bare user name (the first links carried only that;
 * `system:serviceaccount:NS:NAME` is that service account).
 */
function actingUserOf(v: unknown): Scenario['user'] | undefined {
  let u: ActingUser;
  if (typeof v === 'string') {
    if (v.length === 0 || v.length > 253) return undefined;
    const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(v);
    u = parseActingUser(JSON.stringify(sa ? { kind: 'serviceaccount', namespace: sa[1], name: sa[2] } : { kind: 'user', name: v, groups: [] }));
  } else if (isPlainObject(v)) {
    if (JSON.stringify(v).length > 4096) return undefined;
    u = parseActingUser(JSON.stringify(v));
  } else return undefined;
  return u.kind === 'admin' ? undefined : u;
}

/** The optional parts of a decoded scenario, checked; throws a ShareLinkError ('shape') naming the problem. */
function extras(o: Record<string, unknown>): Omit<Scenario, 'text' | 'settings'> {
  const out: Omit<Scenario, 'text' | 'settings'> = {};
  if (o.c !== undefined) {
    const c = o.c as Record<string, unknown>;
    if (!isPlainObject(c) || typeof c.e !== 'string' || typeof c.v !== 'string') throw new ShareLinkError('shape', "the link's CEL content is not an expression and variables");
    out.cel = { expression: c.e, variables: c.v };
  }
  if (o.l !== undefined) {
    const l = o.l as Record<string, unknown>;
    if (!isPlainObject(l) || typeof l.id !== 'string' || !Number.isInteger(l.step) || (l.step as number) < 0) throw new ShareLinkError('shape', "the link's lesson is not a lesson id and step");
    out.lesson = { id: l.id, step: l.step as number };
  }
  if (o.u !== undefined) {
    const u = actingUserOf(o.u);
    if (!u) throw new ShareLinkError('shape', "the link's acting user is not a user name");
    out.user = u;
  }
  if (o.o !== undefined) {
    if (!Array.isArray(o.o)) throw new ShareLinkError('shape', "the link's cluster objects are not a list");
    if (o.o.length > MAX_OBJECTS) throw new ShareLinkError('shape', `the link carries ${o.o.length} cluster objects (at most ${MAX_OBJECTS})`);
    for (const [i, obj] of o.o.entries()) {
      const meta = isPlainObject(obj) ? obj.metadata : undefined;
      if (!isPlainObject(obj) || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string' || !isPlainObject(meta) || typeof meta.name !== 'string') {
        throw new ShareLinkError('shape', `cluster object ${i + 1} in the link has no apiVersion, kind and metadata.name`);
      }
    }
    out.objects = o.o as Record<string, unknown>[];
  }
  return out;
}

/** The JSON form of a scenario (short keys; absent parts left out). */
function packScenario(s: Scenario): Record<string, unknown> {
  const out: Record<string, unknown> = { t: s.text };
  if (Object.keys(s.settings).length) out.s = s.settings;
  if (s.cel) out.c = { e: s.cel.expression, v: s.cel.variables };
  if (s.lesson) out.l = s.lesson;
  if (s.user) out.u = s.user;
  if (s.objects?.length) out.o = s.objects;
  return out;
}

export function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(s: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) throw new ShareLinkError('base64', 'the link is not valid base64url');
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

/**
 * Inflates deflate-raw `bytes` into at most `max` bytes. The input goes in small steps and the output is
 * counted as it comes, so that data unpacking past the budget is stopped after about one step's output.
 */
export async function inflateBounded(bytes: Uint8Array<ArrayBuffer>, max: number): Promise<Uint8Array> {
  const ds = new DecompressionStream('deflate-raw');
  const writer = ds.writable.getWriter();
  const reader = ds.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let tooLarge = false;
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done || !value) return;
      total += value.byteLength;
      if (total > max) {
        tooLarge = true;
        await reader.cancel().catch(() => undefined);
        return;
      }
      chunks.push(value);
    }
  })();
  reading.catch(() => undefined);
  const writing = (async () => {
    for (let off = 0; off < bytes.length && !tooLarge; off += INFLATE_STEP) {
      await writer.ready;
      if (tooLarge) break;
      await writer.write(bytes.slice(off, off + INFLATE_STEP));
    }
    if (tooLarge) await writer.abort().catch(() => undefined);
    else await writer.close();
  })();
  writing.catch(() => undefined);
  try {
    await Promise.all([writing, reading]);
  } catch {
    if (!tooLarge) throw new ShareLinkError('compression', "the link's data is not valid compressed (deflate) data");
  }
  if (tooLarge) throw new ShareLinkError('too-large', `the scenario in the link unpacks to more than ${sizeText(max)}`);
  return concatBytes(chunks);
}

/** Only the settings that differ from `defaults`. */
export function changedSettings<T extends Record<string, string | boolean>>(settings: T, defaults: T): Partial<T> {
  const out: Partial<T> = {};
  for (const k of Object.keys(settings) as (keyof T)[]) if (settings[k] !== defaults[k]) out[k] = settings[k];
  return out;
}

/** The fragment (with its `#`) for a scenario; throws a ShareLinkError when it is too large to be opened. */
export async function encodeScenario(s: Scenario, budget: DecodeBudget = DEFAULT_BUDGET): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(packScenario(s)));
  if (json.byteLength > budget.maxScenarioBytes) {
    throw new ShareLinkError('too-large', `the editor text is too large to share (more than ${sizeText(budget.maxScenarioBytes)})`);
  }
  const packed = toBase64Url(await pipe(json, new CompressionStream('deflate-raw')));
  if (packed.length > budget.maxLinkChars) {
    throw new ShareLinkError('too-long', `the share link would be too long (${packed.length} characters; at most ${budget.maxLinkChars})`);
  }
  return SCENARIO_PREFIX + packed;
}

/** Whether a fragment is meant to be a share link (one of the known prefixes). */
export function isShareLink(hash: string): boolean {
  return hash.startsWith(SCENARIO_PREFIX) || LEGACY_PREFIXES.some((p) => hash.startsWith(p));
}

function payloadOf(hash: string, prefix: string, budget: DecodeBudget): Uint8Array<ArrayBuffer> {
  const data = hash.slice(prefix.length);
  if (data.length > budget.maxLinkChars) {
    throw new ShareLinkError('too-long', `the link is too long (${data.length} characters; at most ${budget.maxLinkChars})`);
  }
  return fromBase64Url(data);
}

/**
 * The scenario in a fragment: undefined when the fragment is no share link; throws a ShareLinkError
 * saying what is wrong with a share link that cannot be opened.
 */
export async function readScenario(hash: string, budget: DecodeBudget = DEFAULT_BUDGET): Promise<Scenario | undefined> {
  if (hash.startsWith(SCENARIO_PREFIX)) {
    const raw = await inflateBounded(payloadOf(hash, SCENARIO_PREFIX, budget), budget.maxScenarioBytes);
    let v: unknown;
    try {
      v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      throw new ShareLinkError('json', 'the scenario in the link is not valid JSON');
    }
    if (jsonDepth(v) > MAX_DEPTH) throw new ShareLinkError('shape', `the scenario in the link is nested deeper than ${MAX_DEPTH} levels`);
    const o = v as { t?: unknown; s?: unknown } | null;
    if (typeof o !== 'object' || o === null || Array.isArray(o) || typeof o.t !== 'string') {
      throw new ShareLinkError('shape', 'the scenario in the link has no editor text');
    }
    if (o.s !== undefined && (typeof o.s !== 'object' || o.s === null || Array.isArray(o.s))) {
      throw new ShareLinkError('shape', "the scenario in the link has settings that are not an object");
    }
    const settings: Scenario['settings'] = {};
    for (const [k, val] of Object.entries((o.s ?? {}) as Record<string, unknown>)) {
      if (typeof val === 'string' || typeof val === 'boolean') settings[k] = val;
    }
    return { text: o.t, settings, ...extras(o as Record<string, unknown>) };
  }
  for (const prefix of LEGACY_PREFIXES) {
    if (!hash.startsWith(prefix)) continue;
    const bytes = payloadOf(hash, prefix, budget);
    if (bytes.byteLength > budget.maxScenarioBytes) {
      throw new ShareLinkError('too-large', `the text in the link is larger than ${sizeText(budget.maxScenarioBytes)}`);
    }
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), settings: {} };
    } catch {
      throw new ShareLinkError('encoding', 'the text in the link is not valid UTF-8');
    }
  }
  return undefined;
}

/** The scenario in a fragment, or undefined (no scenario there, or it does not decode). */
export async function decodeScenario(hash: string, budget: DecodeBudget = DEFAULT_BUDGET): Promise<Scenario | undefined> {
  try {
    return await readScenario(hash, budget);
  } catch {
    return undefined;
  }
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
  budget: DecodeBudget = DEFAULT_BUDGET,
): Promise<{ scenario: Scenario; source: ScenarioSource; warning?: string }> {
  let warning: string | undefined;
  try {
    const fromLink = await readScenario(hash, budget);
    if (fromLink) return { scenario: fromLink, source: 'link' };
  } catch (err) {
    const why = err instanceof ShareLinkError ? err.message : 'it could not be decoded';
    warning = `The shared link could not be opened: ${why}.`;
  }
  const session = parseSession(stored);
  if (session) return { scenario: session, source: 'session', warning: warning && `${warning} The last session is shown instead.` };
  return { scenario: fallback, source: 'default', warning };
}

/** The URL of a page with the fragment replaced (for the share button). */
export function shareUrl(href: string, fragment: string): string {
  const hash = href.indexOf('#');
  return (hash < 0 ? href : href.slice(0, hash)) + fragment;
}
