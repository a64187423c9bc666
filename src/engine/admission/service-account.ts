// ServiceAccount [K8S plugin/pkg/admission/serviceaccount], on create only (docs/design.md: pod updates):
// a pod runs as its service account ("default" when none is named) and, unless the pod or the account
// turns automounting off, every (init) container mounts a projected token volume
// `kube-api-access-<suffix>` at /var/run/secrets/kubernetes.io/serviceaccount. A later replace of the
// manifest as first written therefore changes the pod's volumes and is refused by update validation, as on
// a real server.
//
// The real plugin refuses a pod whose service account does not exist (403). This engine has no service
// account controller yet to create each namespace's "default" account, so a pod whose account does not
// exist is left as it is.

import { a, o, str } from '../resources/common/printers.js';
import { isMainResource, type MutatingPlugin } from './types.js';

type Obj = Record<string, unknown>;

const VOLUME_PREFIX = 'kube-api-access-';
const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

export const serviceAccount: MutatingPlugin = {
  name: 'ServiceAccount',
  operations: ['create'],
  resources: [['', 'pods']],
  admit(attrs) {
    if (!isMainResource(attrs, '', 'pods')) return;
    const pod = attrs.object;
    // mirror pods (static pods of a kubelet) are left alone
    if (pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return;
    if (!pod.spec || typeof pod.spec !== 'object') pod.spec = {};
    const spec = pod.spec as Obj;
    const saName = str(spec.serviceAccountName) || 'default';
    const sa = attrs.ctx.list('', 'serviceaccounts', attrs.namespace).find((s) => s.metadata?.name === saName);
    if (!sa) return;
    spec.serviceAccountName = saName;
    const automount = typeof spec.automountServiceAccountToken === 'boolean'
      ? spec.automountServiceAccountToken
      : typeof (sa as Obj).automountServiceAccountToken === 'boolean' ? (sa as Obj).automountServiceAccountToken : true;
    if (!automount) return;
    const volumes = a(spec.volumes);
    const existing = volumes.find((v) => str(v.name).startsWith(VOLUME_PREFIX));
    const volumeName = existing ? str(existing.name) : VOLUME_PREFIX + attrs.ctx.env.ids.suffix(5);
    let needsVolume = false;
    for (const list of [spec.initContainers, spec.containers]) {
      if (!Array.isArray(list)) continue;
      for (const c of list as Obj[]) {
        const mounts = a(c.volumeMounts);
        // an existing mount at the token path keeps the token out of that container
        if (mounts.some((m) => m.mountPath === MOUNT_PATH)) continue;
        c.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: MOUNT_PATH }];
        needsVolume = true;
      }
    }
    if (!existing && needsVolume) spec.volumes = [...volumes, tokenVolume(volumeName)];
  },
};

/** The projected volume of a bound service-account token, the cluster CA and the namespace. */
function tokenVolume(name: string): Obj {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  };
}
