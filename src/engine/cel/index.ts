// Public API of the CEL core. See env.ts (environment, compile, evaluate), schema-types.ts (OpenAPI schema ->
// CEL types), library.ts (value representation and function registration for libraries).

export {
  createCelEnv, isCompileError, isRuntimeError, PER_CALL_LIMIT, PER_EXPRESSION_ESTIMATE_LIMIT,
  type CelEnv, type CelEnvOptions, type CelProgram, type CelResult, type CelCompileError, type CelRuntimeError,
} from './env.js';
export { schemaToCelType, escapeProperty, unescapeProperty, SchemaTypeProvider, MAX_REQUEST_SIZE_BYTES } from './schema-types.js';
export { fromJson, toJson } from './convert.js';
export { MAX_COST, type CostEstimate } from './cost.js';
export type { CelIssue, CelPosition } from './ast.js';
export { T, typeName, CEL_VERSIONS, versionAtLeast, type CelType, type CelVersion } from './types.js';
export * from './library.js';
