// Kubernetes CEL libraries bound into the CEL core (owned by the cel-libs work). The core imports
// `kubernetesLibraries`; each library carries the first compatibility version that has it in the spec's
// "Available" numbering (the real environment's introduced version + 1):
//   all versions: urls, regex (find/findAll), lists, authz, ext strings (v0 functions)
//   1.29: quantity           1.30: ext strings v2 (format, strings.quote), ext sets
//   1.31: ip, cidr           1.32: format, authz selectors           1.34: semver

import type { CelLibrary } from '../library.js';
import { authzLibrary, authzSelectorsLibrary } from './bind-authz.js';
import { listsLibrary, setsLibrary } from './bind-lists.js';
import { cidrLibrary, ipLibrary } from './bind-net.js';
import { regexLibrary, stringsLibrary, urlLibrary } from './bind-text.js';
import { formatLibrary, quantityLibrary, semverLibrary } from './bind-values.js';

export const kubernetesLibraries: CelLibrary[] = [
  urlLibrary,
  regexLibrary,
  listsLibrary,
  authzLibrary,
  stringsLibrary,
  quantityLibrary,
  setsLibrary,
  ipLibrary,
  cidrLibrary,
  formatLibrary,
  authzSelectorsLibrary,
  semverLibrary,
];

export {
  AUTHORIZER_TYPE, DECISION_TYPE, GROUP_CHECK_TYPE, PATH_CHECK_TYPE, RESOURCE_CHECK_TYPE, authorizerValue, requestResourceValue,
} from './bind-authz.js';
export type { Authorizer, AuthorizerAttributes, AuthorizerResult, UserInfo } from './authz.js';
export { allowAllAuthorizer } from './authz.js';
export { CIDR_TYPE, CIDRValue, IP_TYPE, IPValue } from './bind-net.js';
export { URL_TYPE, URLValue } from './bind-text.js';
export { FORMAT_TYPE, FormatValue, QUANTITY_TYPE, QuantityValue, SEMVER_TYPE, SemverValue } from './bind-values.js';
export { compileRE2, validateRE2, RegexSyntaxError } from './regex.js';
export { checkFormatCall } from './strings.js';
export type { FormatArgType } from './strings.js';
export { setStrictHostBits } from './cidr.js';
