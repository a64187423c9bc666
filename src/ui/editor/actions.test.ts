import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, findDocument, formatPatchTarget, parsePatchTarget, planRequest, rememberManager, replaceDocument, splitDocuments } from './actions.js';
import { countDocuments } from './documents.js';
import type { ResolvedTarget } from './discovery.js';

const target: ResolvedTarget = {
  resource: { groupVersion: 'v1', group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: [] },
  namespace: 'default',
  name: 'c',
  collectionPath: '/api/v1/namespaces/default/configmaps',
  itemPath: '/api/v1/namespaces/default/configmaps/c',
};
const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: "1"\n';
const doc = { text, value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } } };

describe('planRequest', () => {
  it('create posts JSON to the collection with the field manager', () => {
    expect(planRequest('create', doc, target, DEFAULT_OPTIONS)).toEqual({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps?fieldManager=playground',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(doc.value),
    });
  });
  it('apply sends the YAML with dryRun, fieldValidation and force', () => {
    expect(planRequest('apply', doc, target, { ...DEFAULT_OPTIONS, dryRun: true, fieldValidation: 'Strict', force: true, fieldManager: 'me' })).toEqual({
      method: 'PATCH',
      path: '/api/v1/namespaces/default/configmaps/c?dryRun=All&fieldManager=me&fieldValidation=Strict&force=true',
      headers: { 'Content-Type': 'application/apply-patch+yaml', Accept: 'application/json' },
      body: text,
    });
    expect(planRequest('apply', doc, target, { ...DEFAULT_OPTIONS, fieldManager: '' })).toEqual({ error: 'apply needs a field manager' });
  });
  it('patch picks the content type; replace puts; delete has no body', () => {
    const p = planRequest('patch', { text: '[]', value: [] }, target, { ...DEFAULT_OPTIONS, patchType: 'json' });
    expect(p).toMatchObject({ method: 'PATCH', headers: { 'Content-Type': 'application/json-patch+json' }, body: '[]' });
    expect(planRequest('replace', doc, target, DEFAULT_OPTIONS)).toMatchObject({ method: 'PUT', path: '/api/v1/namespaces/default/configmaps/c?fieldManager=playground' });
    expect(planRequest('delete', doc, target, { ...DEFAULT_OPTIONS, dryRun: true })).toEqual({
      method: 'DELETE',
      path: '/api/v1/namespaces/default/configmaps/c?dryRun=All',
      headers: { Accept: 'application/json' },
    });
    expect(planRequest('delete', doc, { ...target, itemPath: undefined }, DEFAULT_OPTIONS)).toEqual({ error: 'the manifest has no metadata.name' });
  });
});

describe('documents', () => {
  const multi = `${text}---\n# only a comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n  namespace: x\n---\nbad: [\n`;
  it('splits multi-document YAML, skipping empty documents, keeping parse errors', () => {
    const docs = splitDocuments(multi);
    expect(docs.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(docs[0].value).toEqual(doc.value);
    expect((docs[1].value as { metadata: unknown }).metadata).toEqual({ name: 'd', namespace: 'x' });
    expect(docs[2].error).toMatch(/./);
  });
  it('finds and replaces a document by identity', () => {
    expect(findDocument(multi, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd', namespace: 'x' } })).toBe(1);
    expect(findDocument(multi, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } })).toBe(0);
    const replaced = replaceDocument(multi, 1, 'a: 1\n');
    expect(replaced).toBe(`${text}---\na: 1\n---\nbad: [\n`);
  });
  it('patch targets and recent managers', () => {
    expect(parsePatchTarget('apps/v1 Deployment prod/web')).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { namespace: 'prod', name: 'web' } });
    expect(parsePatchTarget('v1 Namespace x')).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } });
    expect(parsePatchTarget('v1')).toEqual({ error: 'patch target: write "apiVersion kind [namespace/]name"' });
    expect(formatPatchTarget(doc.value)).toBe('v1 ConfigMap default/c');
    expect(rememberManager(['a', 'b', 'c'], 'b')).toEqual(['b', 'a', 'c']);
  });
  it('counts the documents without parsing them, as many as splitDocuments parses', () => {
    for (const t of ['', '# only a comment\n', 'a: 1\n', 'a: 1\n---\nb: 2\n', '---\na: 1\n---\n# c\n---\nbad: [\n...\n', '--- x: 1\n---\n\n---   # c\ny: 2\n']) {
      expect(countDocuments(t)).toBe(splitDocuments(t).length);
    }
    expect(countDocuments('a: 1\n---\nb: 2\n---\nbad: [\n')).toBe(3);
  });
});
