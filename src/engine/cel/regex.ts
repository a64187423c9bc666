// RE2 patterns for `matches`: delegates to the Kubernetes regex library's RE2 -> RegExp translator
// (lib/regex.ts), turning its syntax errors into CEL runtime errors.

import { CelError } from './values.js';
import { RegexSyntaxError, compileRE2 } from './lib/regex.js';

export function compileRe2(pattern: string): RegExp {
  try {
    return compileRE2(pattern);
  } catch (e) {
    if (e instanceof RegexSyntaxError) throw new CelError(e.message);
    throw e;
  }
}
