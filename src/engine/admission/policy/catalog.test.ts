// The ValidatingAdmissionPolicy chain covers every served kind: a policy matching `*` that refuses the name
// `forbidden-name` refuses creating such an object of every built-in kind (and of a custom resource) with
// the exact Status, while the same object under another name is created (so the refusal is the policy's).
// The policies and bindings themselves are exempt, as on the real server.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../../testing/harness.js';
import { builtinResources } from '../../resources/index.js';
import { sampleObject } from '../../resources/samples.js';
import type { ResourceDefinition } from '../../registry/types.js';
import type { KubeObject } from '../../object.js';
import { binding, denied, policy } from './test-kit.js';

const widget = { group: 'catalog.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true } as unknown as ResourceDefinition;
const kinds = [...builtinResources, widget];
const EXEMPT = new Set(['admissionregistration.k8s.io/validatingadmissionpolicies', 'admissionregistration.k8s.io/validatingadmissionpolicybindings']);
const nsOf = (def: ResourceDefinition) => `cat-${kinds.indexOf(def)}`;
const path = (def: ResourceDefinition) =>
  `${def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`}${def.namespaced ? `/namespaces/${nsOf(def)}` : ''}/${def.plural}`;
const sample = (def: ResourceDefinition, name: string): KubeObject =>
  sampleObject(def, name, nsOf(def)) ?? { apiVersion: `${def.group}/${def.version}`, kind: def.kind, metadata: { name }, spec: { a: name } };
/** Kinds whose name is data (a CRD's <plural>.<group>, an IPAddress's address, an APIService's <version>.<group>): their samples' names under the forbidden name. */
const RENAMED = [...new Set(kinds.map((d) => sample(d, 'forbidden-name').metadata!.name!).filter((n) => n !== 'forbidden-name'))];
const msg = (name: string) => `ValidatingAdmissionPolicy 'no-forbidden-name' with binding 'no-forbidden-name' denied request: failed expression: object.metadata.name != '${name}'`;

let c: TestClient;
beforeAll(async () => {
  c = await testClient(createMemoryStorage());
  for (const def of kinds) if (def.namespaced) expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: nsOf(def) } })).status).toBe(201);
  const crd = await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    metadata: { name: 'widgets.catalog.example.com' },
    spec: {
      group: 'catalog.example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } } }],
    },
  });
  expect(crd.status, crd.text).toBe(201);
  await policy(c, 'no-forbidden-name', {
    matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] },
    // kinds whose name is data: their samples under the forbidden name are named as RENAMED
    validations: [{ expression: "object.metadata.name != 'forbidden-name'" }, ...RENAMED.map((n) => ({ expression: `object.metadata.name != '${n}'` }))],
  });
  await binding(c, 'no-forbidden-name', { policyName: 'no-forbidden-name', validationActions: ['Deny'] });
});

describe('a policy matching every resource refuses the forbidden name', () => {
  for (const def of kinds) {
    const id = `${def.plural}.${def.version}${def.group ? `.${def.group}` : ''}`;
    it(id, async () => {
      const bad = sample(def, 'forbidden-name');
      const name = bad.metadata!.name!;
      expect(['forbidden-name', ...RENAMED]).toContain(name);
      const r = await c.req('POST', path(def), bad);
      if (EXEMPT.has(`${def.group}/${def.plural}`)) {
        expect(r.status, r.text).toBe(201);
        return;
      }
      expect(r.status, r.text).toBe(422);
      expect(r.body).toEqual(denied({ group: def.group, resource: def.plural }, name, msg(name)));
      const ok = await c.req('POST', path(def), sample(def, `allowed-${def.version}`));
      expect(ok.status, ok.text).toBe(201);
    });
  }
});
