// The editor's request options and their defaults, apart from ./actions.ts so that the editor's state (and
// with it the first paint) does not load the YAML parser.
export type PatchType = 'json' | 'merge' | 'strategic';
export type FieldValidation = '' | 'Ignore' | 'Warn' | 'Strict';

export interface ActionOptions {
  dryRun: boolean;
  /** '' leaves the parameter out (the server's default, Warn). */
  fieldValidation: FieldValidation;
  /** Required for apply; sent with the other writes when not empty. */
  fieldManager: string;
  force: boolean;
  patchType: PatchType;
}

export const DEFAULT_OPTIONS: ActionOptions = {
  dryRun: false,
  fieldValidation: '',
  fieldManager: 'playground',
  force: false,
  patchType: 'strategic',
};

/** Recent field managers, most recent first, without duplicates, at most `max`. */
export function rememberManager(recent: string[], manager: string, max = 8): string[] {
  if (!manager) return recent;
  return [manager, ...recent.filter((m) => m !== manager)].slice(0, max);
}
