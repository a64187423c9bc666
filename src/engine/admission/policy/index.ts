// ValidatingAdmissionPolicy: the admission plugin (plugin.ts) and the type checking the policy status
// controller writes (typecheck.ts).
export { validatingAdmissionPolicy } from './plugin.js';
