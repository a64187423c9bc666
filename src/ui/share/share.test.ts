import { describe, expect, it } from 'vitest';
import { changedSettings, decodeScenario, encodeScenario, fromBase64Url, initialScenario, shareUrl, toBase64Url } from './share.js';

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
      warning: 'The shared link could not be decoded; the last session is shown instead.',
    });
  });

  it('keeps only changed settings; builds the URL', () => {
    expect(changedSettings({ a: 'x', b: true, c: false }, { a: 'x', b: false, c: false })).toEqual({ b: true });
    expect(shareUrl('http://h/p?q=1#old', '#scenario/abc')).toBe('http://h/p?q=1#scenario/abc');
    expect(shareUrl('http://h/', '#scenario/abc')).toBe('http://h/#scenario/abc');
  });
});
