import { describe, expect, it } from 'vitest';
import {
  changedSettings,
  decodeScenario,
  encodeScenario,
  fromBase64Url,
  inflateBounded,
  initialScenario,
  MAX_LINK_CHARS,
  MAX_SCENARIO_BYTES,
  readScenario,
  ShareLinkError,
  shareUrl,
  toBase64Url,
} from './share.js';

const fallback = { text: 'default: 1\n', settings: {} };

describe('share links', () => {
  it('round-trips text and settings through #scenario/', async () => {
    const s = { text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ü-demo\n---\nkind: X\n', settings: { fieldManager: 'alice', dryRun: true } };
    const hash = await encodeScenario(s);
    expect(hash).toMatch(/^#scenario\/[A-Za-z0-9_-]+$/);
    expect(await decodeScenario(hash)).toEqual(s);
  });

  it('compresses repetitive manifests', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\n'.repeat(200);
    const hash = await encodeScenario({ text, settings: {} });
    expect(hash.length).toBeLessThan(text.length / 10);
  });

  it('keeps decoding the legacy #yaml/ form; garbage decodes to undefined', async () => {
    const legacy = '#yaml/' + toBase64Url(new TextEncoder().encode('a: 1\n'));
    expect(await decodeScenario(legacy)).toEqual({ text: 'a: 1\n', settings: {} });
    expect(await decodeScenario('#scenario/not-deflate')).toBeUndefined();
    expect(await decodeScenario('#other')).toBeUndefined();
  });

  it('base64url has no padding and round-trips every byte', () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    const s = toBase64Url(bytes);
    expect(s).not.toMatch(/[+/=]/);
    expect([...fromBase64Url(s)]).toEqual([...bytes]);
  });

  it('starts from the link, else the stored session, else the default', async () => {
    const link = await encodeScenario({ text: 'x: 1\n', settings: {} });
    const stored = JSON.stringify({ text: 'y: 2\n', settings: { theme: 'dark' } });
    expect(await initialScenario(link, stored, fallback)).toEqual({ scenario: { text: 'x: 1\n', settings: {} }, source: 'link' });
    expect(await initialScenario('', stored, fallback)).toEqual({ scenario: { text: 'y: 2\n', settings: { theme: 'dark' } }, source: 'session' });
    expect(await initialScenario('', '{bad', fallback)).toEqual({ scenario: fallback, source: 'default' });
    expect(await initialScenario('#scenario/%%%', null, fallback)).toEqual({
      scenario: fallback,
      source: 'default',
      warning: 'The shared link could not be opened: the link is not valid base64url.',
    });
    expect(await initialScenario('#scenario/%%%', stored, fallback)).toEqual({
      scenario: { text: 'y: 2\n', settings: { theme: 'dark' } },
      source: 'session',
      warning: 'The shared link could not be opened: the link is not valid base64url. The last session is shown instead.',
    });
  });

  it('keeps only changed settings; builds the URL', () => {
    expect(changedSettings({ a: 'x', b: true, c: false }, { a: 'x', b: false, c: false })).toEqual({ b: true });
    expect(shareUrl('http://h/p?q=1#old', '#scenario/abc')).toBe('http://h/p?q=1#scenario/abc');
    expect(shareUrl('http://h/', '#scenario/abc')).toBe('http://h/#scenario/abc');
  });
});

async function deflate(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw')));
  return new Uint8Array(await out.arrayBuffer());
}

const link = async (json: string) => '#scenario/' + toBase64Url(await deflate(new TextEncoder().encode(json)));

async function problemOf(hash: string, budget?: { maxLinkChars: number; maxScenarioBytes: number }): Promise<string> {
  try {
    await readScenario(hash, budget);
    return 'none';
  } catch (err) {
    expect(err).toBeInstanceOf(ShareLinkError);
    return `${(err as ShareLinkError).problem}: ${(err as Error).message}`;
  }
}

describe('share links are decoded within a budget', () => {
  it('a decompression bomb is refused once the unpacked size passes the budget, without unpacking it all', async () => {
    // 64 MiB of zeros packs into ~64 KiB: 16 times the 4 MiB budget
    const bomb = await deflate(new Uint8Array(64 * 1024 * 1024));
    const hash = '#scenario/' + toBase64Url(bomb);
    expect(hash.length).toBeLessThan(MAX_LINK_CHARS);
    // count what the inflater produces: it must stop soon after the budget, not unpack 64 MiB
    const Real = globalThis.DecompressionStream;
    let produced = 0;
    class Counting {
      readonly writable: WritableStream<BufferSource>;
      readonly readable: ReadableStream<Uint8Array>;
      constructor(format: CompressionFormat) {
        const real = new Real(format);
        this.writable = real.writable;
        this.readable = real.readable.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              produced += chunk.byteLength;
              controller.enqueue(chunk);
            },
          }),
        );
      }
    }
    globalThis.DecompressionStream = Counting as unknown as typeof DecompressionStream;
    try {
      const started = performance.now();
      expect(await problemOf(hash)).toBe('too-large: the scenario in the link unpacks to more than 4 MiB');
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      globalThis.DecompressionStream = Real;
    }
    expect(produced).toBeGreaterThan(MAX_SCENARIO_BYTES);
    expect(produced).toBeLessThan(MAX_SCENARIO_BYTES + 4 * 1024 * 1024);
    expect(await decodeScenario(hash)).toBeUndefined();
    // the bound is on the output as it streams: a small budget stops a small bomb too
    await expect(inflateBounded(await deflate(new Uint8Array(200_000)), 10_000)).rejects.toMatchObject({ problem: 'too-large' });
    expect((await inflateBounded(await deflate(new Uint8Array(10_000)), 10_000)).byteLength).toBe(10_000);
  });

  it('a link longer than the budget is refused before it is decoded', async () => {
    expect(await problemOf('#scenario/' + 'A'.repeat(MAX_LINK_CHARS + 4))).toBe(
      `too-long: the link is too long (${MAX_LINK_CHARS + 4} characters; at most ${MAX_LINK_CHARS})`,
    );
    expect(await problemOf('#yaml/' + 'A'.repeat(20), { maxLinkChars: 16, maxScenarioBytes: 100 })).toBe('too-long: the link is too long (20 characters; at most 16)');
    expect(await problemOf('#yaml/' + toBase64Url(new Uint8Array(200).fill(97)), { maxLinkChars: 1000, maxScenarioBytes: 100 })).toBe(
      'too-large: the text in the link is larger than 1 KiB',
    );
  });

  it('names what is wrong with a bad link: base64, compression, JSON, shape, UTF-8', async () => {
    expect(await problemOf('#scenario/abc$def')).toBe('base64: the link is not valid base64url');
    expect(await problemOf('#scenario/abcde')).toBe('base64: the link is not valid base64url');
    expect(await problemOf('#scenario/' + toBase64Url(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x01, 0x02])))).toBe(
      "compression: the link's data is not valid compressed (deflate) data",
    );
    expect(await problemOf(await link('{"t": "unterminated'))).toBe('json: the scenario in the link is not valid JSON');
    expect(await problemOf(await link('[1,2]'))).toBe('shape: the scenario in the link has no editor text');
    expect(await problemOf(await link('{"t": 5}'))).toBe('shape: the scenario in the link has no editor text');
    expect(await problemOf(await link('{"t": "a", "s": [1]}'))).toBe('shape: the scenario in the link has settings that are not an object');
    expect(await problemOf('#yaml/' + toBase64Url(new Uint8Array([0xc3, 0x28])))).toBe('encoding: the text in the link is not valid UTF-8');
    // settings of other types are dropped, not trusted
    expect(await readScenario(await link('{"t": "a", "s": {"theme": "dark", "x": {"y": 1}}}'))).toEqual({ text: 'a', settings: { theme: 'dark' } });
    expect(await readScenario('#other')).toBeUndefined();
  });

  it('the share button refuses to make a link it could not open again', async () => {
    const big = { text: 'x'.repeat(MAX_SCENARIO_BYTES), settings: {} };
    await expect(encodeScenario(big)).rejects.toMatchObject({ problem: 'too-large', message: 'the editor text is too large to share (more than 4 MiB)' });
    const random = new Uint8Array(3000).map((_, i) => (i * 7919) % 251);
    await expect(encodeScenario({ text: toBase64Url(random), settings: {} }, { maxLinkChars: 1000, maxScenarioBytes: 1_000_000 })).rejects.toMatchObject({ problem: 'too-long' });
  });
});
