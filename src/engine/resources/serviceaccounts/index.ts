// ServiceAccounts (core v1): metadata validation and the printer.

import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { a, ageColumn, col } from '../common/printers.js';

export const serviceaccounts = builtin('', 'v1', 'serviceaccounts', {
  tableColumns: [
    col('Secrets', 'string', 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret', (obj) => a(obj.secrets).length),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
