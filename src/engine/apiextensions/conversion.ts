// Conversion of custom resources between the served versions of a CRD [K8S apiextensions-apiserver
// pkg/apiserver/conversion]: strategy None rewrites apiVersion only; strategy Webhook calls the CRD's
// conversion webhook, which nothing here can reach (the playground runs no workloads and makes no outgoing
// calls), so a conversion it would need fails with the real converter's error. Reading also applies the
// schema defaults of the version an object is stored in, as the real storage decoder does: objects stored
// before a default was added gain it on get, list and watch.

import { internalError } from '../errors.js';
import { clone, type KubeObject } from '../object.js';
import type { VersionConversion } from '../registry/conversion.js';
import type { Schema } from '../schema/types.js';
import { applyDefaults } from './defaulting.js';
import type { CrdSpec } from './serving.js';

/** Reads one stored object (for the webhook's Service). */
export type ObjectLookup = (group: string, resource: string, namespace: string, name: string) => KubeObject | undefined;

interface WebhookClientConfig {
  url?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
}

function hasDefault(s: unknown): boolean {
  if (!s || typeof s !== 'object') return false;
  if (Array.isArray(s)) return s.some(hasDefault);
  const rec = s as Record<string, unknown>;
  if (rec.default !== undefined) return true;
  return Object.values(rec).some(hasDefault);
}

/** What calling the webhook ends with here: the Service is missing, lacks the port, or nothing answers. */
function webhookFailure(cfg: WebhookClientConfig, lookup: ObjectLookup | undefined): string {
  if (cfg.url) {
    let host = cfg.url;
    try {
      const u = new URL(cfg.url);
      host = `${u.hostname}:${u.port || (u.protocol === 'http:' ? '80' : '443')}`;
    } catch {
      // kept as written
    }
    return `Post "${withTimeout(cfg.url)}": dial tcp ${host}: connect: connection refused`;
  }
  const svc = cfg.service ?? {};
  const port = svc.port ?? 443;
  const url = `https://${svc.name ?? ''}.${svc.namespace ?? ''}.svc:${port}${svc.path ?? ''}`;
  const found = lookup?.('', 'services', svc.namespace ?? '', svc.name ?? '');
  let cause: string;
  if (!found) cause = `service "${svc.name ?? ''}" not found`;
  else {
    const spec = (found.spec ?? {}) as { clusterIP?: string; type?: string; ports?: { port?: number }[] };
    if (spec.clusterIP === 'None') cause = 'cannot route to service with ClusterIP "None"';
    else if (!(spec.ports ?? []).some((p) => p.port === port)) cause = `no service port ${port} found for service "${svc.name ?? ''}"`;
    else cause = `dial tcp ${spec.clusterIP ?? ''}:${port}: connect: connection refused`;
  }
  return `Post "${withTimeout(url)}": ${cause}`;
}

function withTimeout(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}timeout=30s`;
}

/** The conversion of one CRD's custom resources (all its served versions share one store). */
export function crdConversion(crd: KubeObject, kind: string, lookup?: ObjectLookup): VersionConversion {
  const s = crd.spec as CrdSpec & { conversion?: { strategy?: string; webhook?: { clientConfig?: WebhookClientConfig } } };
  const storage = s.versions.find((v) => v.storage)?.name ?? s.versions[0]?.name ?? '';
  const schemas = new Map<string, Schema | undefined>(s.versions.map((v) => [`${s.group}/${v.name}`, v.schema?.openAPIV3Schema]));
  const defaults = s.versions.some((v) => hasDefault(v.schema?.openAPIV3Schema));
  const webhook = s.conversion?.strategy === 'Webhook';
  const clientConfig = s.conversion?.webhook?.clientConfig ?? {};
  return {
    storageGroup: s.group,
    storageResource: s.names.plural,
    storageApiVersion: `${s.group}/${storage}`,
    convertOnRead: defaults,
    convert(obj, apiVersion) {
      const out = clone(obj);
      // the storage decoder defaults with the schema of the version the object is in
      if (defaults) applyDefaults(out, schemas.get(String(obj.apiVersion)));
      if (obj.apiVersion === apiVersion) return out;
      if (webhook) {
        const [group, version] = String(obj.apiVersion ?? '').split('/');
        throw internalError(`conversion webhook for ${group}/${version ?? ''}, Kind=${kind} failed: ${webhookFailure(clientConfig, lookup)}`);
      }
      out.apiVersion = apiVersion;
      return out;
    },
  };
}
