// The editor's actions as HTTP requests (pure): Create (POST), Replace (PUT), Apply (server-side apply
// PATCH), Patch (json / merge / strategic) and Delete, with dryRun, fieldValidation, fieldManager and force.
import { dump, load, loadAll } from 'js-yaml';
import { expansionProblem } from '../yaml-budget.js';
import { resolveManifest, type DiscoveryIndex, type ManifestIdentity, type ResolvedTarget } from './discovery.js';
import { documentParts } from './documents.js';
import type { ActionOptions, PatchType } from './options.js';

export type EditorAction = 'create' | 'replace' | 'apply' | 'patch' | 'delete';
export { DEFAULT_OPTIONS, rememberManager, type ActionOptions, type FieldValidation, type PatchType } from './options.js';

export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};
export const APPLY_CONTENT_TYPE = 'application/apply-patch+yaml';

export interface PlannedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** One YAML document of the editor text, with its source and the parsed value (or the parse error). */
export interface EditorDoc {
  index: number;
  text: string;
  value?: unknown;
  error?: string;
}

/** Splits multi-document YAML on `---` lines (the document texts are kept verbatim) and parses each. */
export function splitDocuments(text: string): EditorDoc[] {
  const docs: EditorDoc[] = [];
  for (const part of documentParts(text)) {
    const doc: EditorDoc = { index: docs.length, text: part.replace(/\n+$/, '') + '\n' };
    try {
      doc.value = load(part);
      const tooLarge = expansionProblem(doc.value);
      if (tooLarge) {
        doc.value = undefined;
        doc.error = tooLarge;
      }
    } catch (e) {
      doc.error = e instanceof Error ? e.message.split('\n')[0] : String(e);
    }
    docs.push(doc);
  }
  return docs;
}

/** Joins documents back into one editor text. */
export function joinDocuments(texts: string[]): string {
  return texts.map((t) => t.replace(/\n+$/, '') + '\n').join('---\n');
}

/** YAML text of a value, as the editor shows objects (block style, no line folding). */
export function toYaml(value: unknown): string {
  return dump(value, { lineWidth: -1, noRefs: true });
}

/** Every document, even a JSON array (a JSON patch), parsed (throws on a YAML error). */
export function parseAll(text: string): unknown[] {
  const docs = loadAll(text).filter((d) => d !== null && d !== undefined);
  const tooLarge = expansionProblem(docs);
  if (tooLarge) throw new Error(tooLarge);
  return docs;
}

function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

function writeParams(opts: ActionOptions, withManager: boolean): Record<string, string | undefined> {
  return {
    dryRun: opts.dryRun ? 'All' : undefined,
    fieldManager: withManager && opts.fieldManager ? opts.fieldManager : undefined,
    fieldValidation: opts.fieldValidation || undefined,
  };
}

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

/**
 * The request of one action on one document. `doc` is the parsed manifest (create/replace/apply/delete)
 * or the patch body (patch, whose URL comes from `target`); `docText` is the document's YAML (apply
 * sends it verbatim).
 */
export function planRequest(
  action: EditorAction,
  doc: { text: string; value: unknown },
  target: ResolvedTarget,
  opts: ActionOptions,
): PlannedRequest | { error: string } {
  const needName = (): string | undefined => (target.itemPath ? undefined : 'the manifest has no metadata.name');
  switch (action) {
    case 'create':
      return {
        method: 'POST',
        path: target.collectionPath + query(writeParams(opts, true)),
        headers: { ...JSON_HEADERS },
        body: JSON.stringify(doc.value),
      };
    case 'replace': {
      const err = needName();
      if (err) return { error: err };
      return { method: 'PUT', path: target.itemPath + query(writeParams(opts, true)), headers: { ...JSON_HEADERS }, body: JSON.stringify(doc.value) };
    }
    case 'apply': {
      const err = needName();
      if (err) return { error: err };
      if (!opts.fieldManager) return { error: 'apply needs a field manager' };
      return {
        method: 'PATCH',
        path: target.itemPath + query({ ...writeParams(opts, true), force: opts.force ? 'true' : undefined }),
        headers: { 'Content-Type': APPLY_CONTENT_TYPE, Accept: 'application/json' },
        body: doc.text,
      };
    }
    case 'patch': {
      const err = needName();
      if (err) return { error: err };
      return {
        method: 'PATCH',
        path: target.itemPath + query(writeParams(opts, true)),
        headers: { 'Content-Type': PATCH_CONTENT_TYPES[opts.patchType], Accept: 'application/json' },
        body: JSON.stringify(doc.value),
      };
    }
    case 'delete': {
      const err = needName();
      if (err) return { error: err };
      return { method: 'DELETE', path: target.itemPath + query({ dryRun: opts.dryRun ? 'All' : undefined }), headers: { Accept: 'application/json' } };
    }
  }
}

/** A patch target written as `apiVersion kind [namespace/]name`, e.g. `apps/v1 Deployment default/web`. */
export function parsePatchTarget(text: string): ManifestIdentity | { error: string } {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 3) return { error: 'patch target: write "apiVersion kind [namespace/]name"' };
  const [apiVersion, kind, ref] = parts;
  const slash = ref.indexOf('/');
  const metadata = slash < 0 ? { name: ref } : { namespace: ref.slice(0, slash), name: ref.slice(slash + 1) };
  if (!metadata.name) return { error: 'patch target: the name is empty' };
  return { apiVersion, kind, metadata };
}

/** The patch-target text of a manifest (`apps/v1 Deployment default/web`), or '' when it lacks one. */
export function formatPatchTarget(doc: unknown, defaultNamespace = 'default'): string {
  const d = doc as ManifestIdentity | null;
  if (!d || typeof d !== 'object') return '';
  const name = d.metadata?.name;
  if (typeof d.apiVersion !== 'string' || typeof d.kind !== 'string' || typeof name !== 'string') return '';
  const ns = typeof d.metadata?.namespace === 'string' ? d.metadata.namespace : defaultNamespace;
  return `${d.apiVersion} ${d.kind} ${ns}/${name}`;
}

/** Resolves the target of a patch, from its target text; cluster-scoped kinds ignore the namespace. */
export function resolvePatchTarget(index: DiscoveryIndex, text: string): { target: ResolvedTarget } | { error: string } {
  const id = parsePatchTarget(text);
  if ('error' in id) return id;
  const r = resolveManifest(index, id);
  return r.ok ? { target: r.target } : { error: r.error };
}

/** Replaces document `index` of `text` with `newDoc` (other documents keep their text). */
export function replaceDocument(text: string, index: number, newDoc: string): string {
  const docs = splitDocuments(text);
  if (index < 0 || index >= docs.length) return joinDocuments([...docs.map((d) => d.text), newDoc]);
  return joinDocuments(docs.map((d) => (d.index === index ? newDoc : d.text)));
}

/** The index of the document with the same apiVersion, kind, namespace and name as `obj` (or -1). */
export function findDocument(text: string, obj: ManifestIdentity, defaultNamespace = 'default'): number {
  const key = (o: ManifestIdentity | undefined) =>
    o && typeof o === 'object'
      ? `${String(o.apiVersion)}|${String(o.kind)}|${String(o.metadata?.namespace ?? defaultNamespace)}|${String(o.metadata?.name)}`
      : '';
  const want = key(obj);
  return splitDocuments(text).find((d) => key(d.value as ManifestIdentity) === want)?.index ?? -1;
}

/** A JSON-parsed body or undefined. */
export function jsonOrUndefined(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
