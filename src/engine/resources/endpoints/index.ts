// Endpoints (core v1, deprecated in v1.33 in favour of EndpointSlices): port protocol defaults, the main
// checks of ValidateEndpoints, the printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { isDNS1123Label, isIP, isValidPortNum } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { a, ageColumn, col, str } from '../common/printers.js';

function validateEndpoints(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  a(obj.subsets).forEach((ss, i) => {
    const p = `subsets[${i}]`;
    a(ss.addresses).forEach((ad, j) => {
      if (!isIP(str(ad.ip))) errs.push(fieldErr.invalid(`${p}.addresses[${j}].ip`, str(ad.ip), 'must be a valid IP address'));
    });
    a(ss.notReadyAddresses).forEach((ad, j) => {
      if (!isIP(str(ad.ip))) errs.push(fieldErr.invalid(`${p}.notReadyAddresses[${j}].ip`, str(ad.ip), 'must be a valid IP address'));
    });
    const ports = a(ss.ports);
    ports.forEach((pt, j) => {
      const pp = `${p}.ports[${j}]`;
      const name = str(pt.name);
      if (ports.length > 1 && !name) errs.push(fieldErr.required(`${pp}.name`, ''));
      else if (name) for (const m of isDNS1123Label(name)) errs.push(fieldErr.invalid(`${pp}.name`, name, m));
      for (const m of isValidPortNum(Number(pt.port ?? 0))) errs.push(fieldErr.invalid(`${pp}.port`, Number(pt.port ?? 0), m));
      if (!pt.protocol) errs.push(fieldErr.required(`${pp}.protocol`, ''));
      else if (!['SCTP', 'TCP', 'UDP'].includes(String(pt.protocol))) errs.push(fieldErr.notSupported(`${pp}.protocol`, pt.protocol, ['SCTP', 'TCP', 'UDP']));
    });
  });
  return errs;
}

/** formatEndpoints: up to three host:port entries, then "+ N more...". */
function formatEndpoints(obj: KubeObject): string {
  const subsets = a(obj.subsets);
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addrs = a(ss.addresses);
    const ports = a(ss.ports);
    if (ports.length === 0) {
      count += addrs.length;
      for (const ad of addrs) {
        if (list.length === max) { more = true; break; }
        list.push(str(ad.ip));
      }
      continue;
    }
    for (const pt of ports) {
      count += addrs.length;
      for (const ad of addrs) {
        if (list.length === max) { more = true; break; }
        const ip = str(ad.ip);
        list.push(ip.includes(':') ? `[${ip}]:${pt.port}` : `${ip}:${pt.port}`);
      }
    }
  }
  const s = list.join(',');
  return more ? `${s} + ${count - max} more...` : s;
}

export const endpoints = builtin('', 'v1', 'endpoints', {
  allowCreateOnUpdate: true,
  deprecated: 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice',
  default: (obj) => {
    for (const ss of a(obj.subsets)) for (const p of a(ss.ports)) if (!p.protocol) p.protocol = 'TCP';
  },
  validateObject: (obj) => validateEndpoints(obj),
  tableColumns: [
    col('Endpoints', 'string', 'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.', (obj) => formatEndpoints(obj)),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
