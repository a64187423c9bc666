// The subresources of pods, services, nodes and service accounts that are not stored state: the streaming
// and proxy ones (pods/log, exec, attach, portforward, proxy; services/proxy; nodes/proxy), pods/eviction and
// serviceaccounts/token. Their discovery verbs come from the v1.33 facts (generated catalog); their kinds are
// those the real discovery names. endpoints/connect.ts answers them (serviceaccounts/token: auth/endpoints.ts).

import type { ConnectSubresource, ResourceDefinition } from '../registry/types.js';
import { builtins } from './generated/builtins.js';

const KINDS: Record<string, ConnectSubresource['kind']> = {
  'pods/attach': { group: '', version: '', kind: 'PodAttachOptions' },
  'pods/eviction': { group: 'policy', version: 'v1', kind: 'Eviction' },
  'pods/exec': { group: '', version: '', kind: 'PodExecOptions' },
  'pods/log': { group: '', version: '', kind: 'Pod' },
  'pods/portforward': { group: '', version: '', kind: 'PodPortForwardOptions' },
  'pods/proxy': { group: '', version: '', kind: 'PodProxyOptions' },
  'services/proxy': { group: '', version: '', kind: 'ServiceProxyOptions' },
  'nodes/proxy': { group: '', version: '', kind: 'NodeProxyOptions' },
  'serviceaccounts/token': { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
};

/** The definitions with their connect subresources attached (core v1 pods, services, nodes, serviceaccounts). */
export function withConnectSubresources(defs: ResourceDefinition[]): ResourceDefinition[] {
  return defs.map((d) => {
    if (d.group !== '' || d.version !== 'v1') return d;
    const subs: ConnectSubresource[] = [];
    for (const [full, kind] of Object.entries(KINDS)) {
      const [plural, name] = full.split('/');
      if (plural !== d.plural) continue;
      const facts = builtins.catalog.find((c) => c.group === '' && c.version === 'v1' && c.name === full);
      if (!facts) throw new Error(`no catalog entry for ${full}`);
      subs.push({ name, verbs: [...facts.verbs], kind });
    }
    return subs.length ? { ...d, connect: subs } : d;
  });
}
