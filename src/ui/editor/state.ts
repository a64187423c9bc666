// The editor's shared state outside React: its text and its settings (the request console edits the
// text when resolving an apply conflict; share links and the local session read both).
import { DEFAULT_OPTIONS, type ActionOptions } from './options.js';

export class ValueStore<T> {
  private listeners = new Set<() => void>();
  constructor(private value: T) {}
  get = (): T => this.value;
  set = (v: T): void => {
    if (Object.is(v, this.value)) return;
    this.value = v;
    for (const l of [...this.listeners]) l();
  };
  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
}

export interface EditorSettings extends ActionOptions {
  /** `apiVersion kind [namespace/]name` of the patch target */
  patchTarget: string;
  [key: string]: string | boolean;
}

export const DEFAULT_SETTINGS: EditorSettings = { ...DEFAULT_OPTIONS, patchTarget: '' };

export const DEFAULT_TEXT = `# Edit a manifest, then Create, Apply (Ctrl/Cmd+Enter) or Patch it.
# Several documents separated by --- are sent one after another.
apiVersion: v1
kind: ConfigMap
metadata:
  name: demo
  namespace: default
  labels:
    app: demo
data:
  greeting: hello
`;

export const editorText = new ValueStore<string>(DEFAULT_TEXT);
export const editorSettings = new ValueStore<EditorSettings>(DEFAULT_SETTINGS);
/** Set once the initial scenario (share link or local session) has been loaded into the stores. */
export const editorLoaded = new ValueStore<boolean>(false);

/** Keeps the settings' known keys only, with the right types (for settings read from a link). */
export function sanitizeSettings(raw: Record<string, unknown>): EditorSettings {
  const out: EditorSettings = { ...DEFAULT_SETTINGS };
  for (const [k, def] of Object.entries(DEFAULT_SETTINGS)) {
    const v = raw[k];
    if (typeof v === typeof def) (out as Record<string, string | boolean>)[k] = v as string | boolean;
  }
  if (!['', 'Ignore', 'Warn', 'Strict'].includes(out.fieldValidation)) out.fieldValidation = '';
  if (!['json', 'merge', 'strategic'].includes(out.patchType)) out.patchType = 'strategic';
  return out;
}
