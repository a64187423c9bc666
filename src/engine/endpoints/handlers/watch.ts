// GET ?watch: a chunked stream of watch events [K8S handlers/watch.go, storage/cacher].

import { badRequest } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import { groupVersion } from '../../registry/types.js';
import type { WatchEvent } from '../../watch/hub.js';
import { encodeJson } from '../responders.js';
import { parseIncludeObject, tableRow, columnDefinitions } from '../table.js';
import type { Scope } from '../scope.js';
import { parseListQuery, parseRevision, selectorMatcher } from './list.js';

const encoder = new TextEncoder();

export function handleWatch(scope: Scope): Response {
  const { def, core, info, query } = scope;
  const lq = parseListQuery(scope);
  const state = core.store.state;
  // single-object watch on a named path is the same as metadata.name=<name>
  if (info.name) lq.fieldSelector.push({ field: 'metadata.name', op: '=', value: info.name });
  lq.hasSelectors = lq.labelSelector.length > 0 || lq.fieldSelector.length > 0;
  const match = selectorMatcher(def, lq);
  const prefix = core.store.prefix(def, info.namespace);

  const sendInitialEvents = query.get('sendInitialEvents');
  const sie = sendInitialEvents === 'true' || sendInitialEvents === '1';
  if (sendInitialEvents !== null && lq.resourceVersionMatch !== 'NotOlderThan') {
    throw badRequest(`sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless resourceVersionMatch is set to NotOlderThan`);
  }
  if (sendInitialEvents === null && lq.resourceVersionMatch !== '') {
    throw badRequest(`resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided`);
  }
  const bookmarks = query.get('allowWatchBookmarks') === 'true' || query.get('allowWatchBookmarks') === '1';
  const timeoutRaw = query.get('timeoutSeconds');
  let timeoutMs = 1800_000 + core.env.ids.int(1800) * 1000; // the real server: minRequestTimeout * (1 + rand)
  if (timeoutRaw !== null && timeoutRaw !== '') {
    if (!/^\d+$/.test(timeoutRaw)) throw badRequest(`timeoutSeconds: Invalid value: "${timeoutRaw}": must be a non-negative integer`);
    timeoutMs = Number(timeoutRaw) * 1000;
  }
  const rv = lq.resourceVersion;
  let startRevision: number;
  let initial: KubeObject[] | undefined;
  const snapshot = () => state.list(prefix).map((s) => s.object).filter(match).map((o) => core.store.present(def, o));
  if (sie) {
    // streaming list: initial state at least as new as rv, then a bookmark marking its end
    startRevision = rv !== '' && rv !== '0' ? Math.max(parseRevision(rv), state.revision) : state.revision;
    initial = snapshot();
  } else if (rv === '' || rv === '0') {
    startRevision = state.revision;
    // Get State and Start at Most Recent / Any; sendInitialEvents=false asks for no initial state
    if (sendInitialEvents === null) initial = snapshot();
  } else {
    startRevision = parseRevision(rv); // Start at Exact: changes after rv, no synthetic events
  }

  const neg = scope.negotiated;
  const include = neg.as === 'Table' ? parseIncludeObject(query) : 'Object';
  let firstTable = true;
  const encode = (ev: WatchEvent): Uint8Array => {
    let object: unknown = ev.object;
    if (neg.as === 'Table' && (ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED')) {
      object = {
        kind: 'Table',
        apiVersion: `${neg.asGroup}/${neg.asVersion}`,
        metadata: { resourceVersion: (ev.object as KubeObject).metadata?.resourceVersion },
        columnDefinitions: firstTable ? columnDefinitions(def) : null,
        rows: [tableRow(def, ev.object as KubeObject, core.env.clock.now(), include, neg.asVersion!, neg.asGroup!)],
      };
      firstTable = false;
    }
    return encoder.encode(encodeJson({ type: ev.type, object }, false));
  };
  const handle = core.watch.open({
    prefix,
    startRevision,
    initial,
    initialEventsEnd: sie && bookmarks,
    matches: match,
    present: (o) => core.store.present(def, o),
    bookmark: (revision, annotations) => {
      const metadata: Record<string, unknown> = { resourceVersion: String(revision), creationTimestamp: null };
      if (annotations) metadata.annotations = annotations;
      return { kind: def.kind, apiVersion: groupVersion(def), metadata } as KubeObject;
    },
    encode,
    bookmarks,
    bookmarkIntervalMs: (core as { bookmarkIntervalMs?: number }).bookmarkIntervalMs ?? 60_000,
    timeoutMs,
    signal: scope.request.signal,
  });
  const contentType = neg.as === 'Table' ? 'application/json' : 'application/json';
  return new Response(handle.stream, {
    status: 200,
    headers: { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' },
  });
}
