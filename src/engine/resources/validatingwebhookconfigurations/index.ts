// ValidatingWebhookConfigurations (admissionregistration.k8s.io/v1): the v1 defaults, the webhooks' validation,
// the printer (Webhooks, Age). The ValidatingAdmissionWebhook plugin (admission/webhook) calls them.

import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { defaultWebhooks, validateWebhookConfiguration } from '../common/webhooks.js';
import { a, ageColumn, col } from '../common/printers.js';

export const validatingwebhookconfigurations = builtin('admissionregistration.k8s.io', 'v1', 'validatingwebhookconfigurations', {
  default: (obj) => defaultWebhooks(obj, false),
  // the update options only relax what a stored configuration already had, and every stored one passed
  // the create options here: the same checks serve both
  validateObject: (obj) => validateWebhookConfiguration(obj, false),
  tableColumns: [
    col('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration', (obj) => a(obj.webhooks).length),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
