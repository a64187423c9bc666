// A client write takes effect once, even when its request reaches the host twice.
//
// Why a request arrives twice: Chromium re-dispatches a fetch event to a restarted service worker when the
// worker was stopped before it answered (the page's loader sees the connection to the worker close and
// starts the fetch again, once). If the first delivery had already committed its write, the second one
// applied it again: a second `generateName` object, or a 409 AlreadyExists for an object the first
// delivery stored. A client that retries after a network error does the same.
//
// The remedy: the client names each write with an `Idempotency-Key` header (src/ui/api.ts does for every
// write). For a single-object write (create, update, patch, delete) carrying one, the host records the key
// in the same IndexedDB transaction as the write (RequestJournal.writeFor), then stores the response it
// gave. A request whose key is recorded is not served again: it is answered with the recorded response,
// or, when the worker stopped between the commit and the response, with the object as that write stored
// it (201 for a create, else 200). Writes that fail store nothing and record nothing, so serving their
// repetition again gives the same truthful answer. Collection deletes are idempotent by nature and are
// simply served again.
//
// To know which storage write a request made, the host serves a keyed write request of a cluster alone (no
// other write request runs with it; writes without a key are served together between keyed ones, so that
// their commits meet in one IndexedDB transaction) and tags the first write, during that request, of the
// object or resource the request addresses.
import type { StorageKey, WriteOp } from '../../engine/storage/interface.js';
import { requestInfo } from '../../engine/endpoints/request-info.js';
import { goJsonText } from '../../engine/codec/go-format.js';
import type { RecordedResponse, RequestRecord } from '../../adapters/idb/idb-storage.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on a response that repeats the recorded outcome of an earlier delivery of the same request. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function isWriteMethod(method: string): boolean {
  return WRITE_METHODS.has(method.toUpperCase());
}

/** A keyed single-object write: what to record, and how to recognise the storage write it makes. */
export interface IdempotentWrite {
  id: string;
  /** `METHOD path?query`, recorded with the key. */
  request: string;
  method: string;
  resource: string;
  /** Empty for a create (the name may be generated). */
  name: string;
}

export type KeyCheck = { write: IdempotentWrite } | { error: string } | undefined;

/**
 * The idempotent write `request` asks for: undefined when it has no key or is not a single-object write
 * (reads, collection deletes, non-resource paths), an error for a malformed key.
 */
export function idempotentWrite(request: Request, basePath: string): KeyCheck {
  const id = request.headers.get(IDEMPOTENCY_KEY_HEADER);
  const method = request.method.toUpperCase();
  if (id === null || !WRITE_METHODS.has(method)) return undefined;
  if (!KEY_PATTERN.test(id)) return { error: `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 visible ASCII characters` };
  const url = new URL(request.url);
  const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
  const info = requestInfo(method, path || '/', url.searchParams);
  if (!info.isResourceRequest || info.verb === 'deletecollection' || info.resource === '') return undefined;
  return { write: { id, request: `${method} ${url.pathname}${url.search}`, method, resource: info.resource, name: info.name } };
}

/** Whether a storage write belongs to the request: it touches an object of the addressed resource (and name). */
export function writeMatches(write: IdempotentWrite, ops: WriteOp[]): boolean {
  return ops.some((op) => keyMatches(write, op.key));
}

function keyMatches(write: IdempotentWrite, key: StorageKey): boolean {
  const [, , resource, , name] = key.split('/');
  return resource === write.resource && (write.name === '' || name === write.name);
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/** The response to record for a request served now (its body is read; the returned response replaces it). */
export async function recordable(res: Response): Promise<{ response: Response; recorded: RecordedResponse }> {
  const body = await res.text();
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => headers.push([name, value]));
  return {
    response: new Response(NULL_BODY.has(res.status) ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers }),
    recorded: { status: res.status, headers, body },
  };
}

/** The answer to a repeated delivery of a recorded request. */
export function replay(record: RequestRecord, write: IdempotentWrite): Response {
  if (record.response) {
    const headers = new Headers(record.response.headers);
    headers.set(REPLAYED_HEADER, 'true');
    return new Response(NULL_BODY.has(record.response.status) ? null : record.response.body, { status: record.response.status, headers });
  }
  // The worker stopped after the commit, before the response was stored: answer with the object as the
  // write stored it (a delete's event carries the object's last state).
  const event = record.events.find((e) => keyMatches(write, e.key)) ?? record.events[0];
  return new Response(goJsonText(JSON.stringify(event?.object ?? {})), {
    status: event?.type === 'ADDED' ? 201 : 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', [REPLAYED_HEADER]: 'true' },
  });
}
