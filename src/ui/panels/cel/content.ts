// The CEL panel's expression and variables outside React, so that share links can carry them and load
// them (undefined until the panel is used or a link sets them: the panel then starts on its first example).
import { ValueStore } from '../../editor/state.js';

export interface CelContent {
  expression: string;
  /** the variables as YAML text */
  variables: string;
}

export const celContent = new ValueStore<CelContent | undefined>(undefined);
