// The built-in kinds served by the engine: one line per group/version/resource.

import type { ResourceDefinition } from '../registry/types.js';
import { namespaces } from './namespaces/index.js';
import { pods } from './pods/index.js';
import { services } from './services/index.js';
import { configmaps } from './configmaps/index.js';
import { secrets } from './secrets/index.js';
import { serviceaccounts } from './serviceaccounts/index.js';
import { endpoints } from './endpoints/index.js';
import { events } from './events/index.js';
import { nodes } from './nodes/index.js';
import { persistentvolumes } from './persistentvolumes/index.js';
import { persistentvolumeclaims } from './persistentvolumeclaims/index.js';
import { resourcequotas } from './resourcequotas/index.js';
import { limitranges } from './limitranges/index.js';
import { replicationcontrollers } from './replicationcontrollers/index.js';
import { podtemplates } from './podtemplates/index.js';
import { deployments } from './deployments/index.js';
import { replicasets } from './replicasets/index.js';
import { statefulsets } from './statefulsets/index.js';
import { daemonsets } from './daemonsets/index.js';
import { controllerrevisions } from './controllerrevisions/index.js';
import { jobs } from './jobs/index.js';
import { cronjobs } from './cronjobs/index.js';
import { horizontalpodautoscalers } from './horizontalpodautoscalers/index.js';
import { horizontalpodautoscalersV1 } from './horizontalpodautoscalers/index.js';
import { poddisruptionbudgets } from './poddisruptionbudgets/index.js';
import { ingresses } from './ingresses/index.js';
import { ingressclasses } from './ingressclasses/index.js';
import { networkpolicies } from './networkpolicies/index.js';
import { endpointslices } from './endpointslices/index.js';
import { eventsV1 } from './events-k8s-io/index.js';
import { leases } from './leases/index.js';
import { roles } from './roles/index.js';
import { rolebindings } from './rolebindings/index.js';
import { clusterroles } from './clusterroles/index.js';
import { clusterrolebindings } from './clusterrolebindings/index.js';
import { customresourcedefinitions } from './customresourcedefinitions/index.js';
import { validatingadmissionpolicies } from './validatingadmissionpolicies/index.js';
import { validatingadmissionpolicybindings } from './validatingadmissionpolicybindings/index.js';
import { mutatingwebhookconfigurations } from './mutatingwebhookconfigurations/index.js';
import { validatingwebhookconfigurations } from './validatingwebhookconfigurations/index.js';
import { storageclasses } from './storageclasses/index.js';
import { priorityclasses } from './priorityclasses/index.js';
import { runtimeclasses } from './runtimeclasses/index.js';
import { csidrivers } from './csidrivers/index.js';
import { csinodes } from './csinodes/index.js';
import { csistoragecapacities } from './csistoragecapacities/index.js';
import { volumeattachments } from './volumeattachments/index.js';
import { servicecidrs } from './servicecidrs/index.js';
import { ipaddresses } from './ipaddresses/index.js';
import { apiservices } from './apiservices/index.js';
import { certificatesigningrequests } from './certificatesigningrequests/index.js';
import { flowschemas } from './flowschemas/index.js';
import { prioritylevelconfigurations } from './prioritylevelconfigurations/index.js';
import { componentstatuses } from './componentstatuses/index.js';
import { reviewResources } from './reviews/index.js';
import { withConnectSubresources } from './connect.js';

export { builtinDefinitions } from './factory.js';

export const builtinResources: ResourceDefinition[] = withConnectSubresources([
  namespaces,
  pods,
  services,
  configmaps,
  secrets,
  serviceaccounts,
  endpoints,
  events,
  nodes,
  persistentvolumes,
  persistentvolumeclaims,
  resourcequotas,
  limitranges,
  replicationcontrollers,
  podtemplates,
  deployments,
  replicasets,
  statefulsets,
  daemonsets,
  controllerrevisions,
  jobs,
  cronjobs,
  horizontalpodautoscalers,
  horizontalpodautoscalersV1,
  poddisruptionbudgets,
  ingresses,
  ingressclasses,
  networkpolicies,
  endpointslices,
  eventsV1,
  leases,
  roles,
  rolebindings,
  clusterroles,
  clusterrolebindings,
  customresourcedefinitions,
  validatingadmissionpolicies,
  validatingadmissionpolicybindings,
  mutatingwebhookconfigurations,
  validatingwebhookconfigurations,
  storageclasses,
  priorityclasses,
  runtimeclasses,
  csidrivers,
  csinodes,
  csistoragecapacities,
  volumeattachments,
  servicecidrs,
  ipaddresses,
  apiservices,
  certificatesigningrequests,
  flowschemas,
  prioritylevelconfigurations,
]);

/**
 * Served but never stored: the create-only reviews (answered by auth/endpoints.ts) and the computed
 * componentstatuses. Discovery, OpenAPI and the router see them like the others.
 */
export const virtualResources: ResourceDefinition[] = [componentstatuses, ...reviewResources];
