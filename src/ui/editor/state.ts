// The editor's shared state outside React: its text and its settings (the request console edits the
// text when resolving an apply conflict; share links and the local session read both). Typing in Monaco
// re-renders nothing: the text is read from Monaco when asked for and announced when typing pauses.
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

/** How long typing must pause before the editor's subscribers hear of its text (the document count, the
 *  saved session): a keystroke renders nothing of ours and writes nothing. */
export const TEXT_SETTLE_MS = 250;

/**
 * The editor's text. Whoever replaces it (a panel, a link, the plain text area) calls `set`, and subscribers
 * hear of it at once. The editor that owns the text while it is typed in (Monaco) only calls `changed` with a
 * way to read it: `get` reads the owner's current text on demand (so a request, a share link or kubectl
 * always sees what is on screen), and subscribers are told once typing pauses for TEXT_SETTLE_MS, or at
 * `flush` (the page being hidden or closed, the editor going away).
 */
export class TextStore {
  private listeners = new Set<() => void>();
  /** The owner's reader while it holds changes not yet pulled into `value`. */
  private read: (() => string) | undefined;
  /** The text subscribers were last told about. */
  private told: string;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastChange = 0;

  constructor(
    private value: string,
    private readonly settleMs = TEXT_SETTLE_MS,
  ) {
    this.told = value;
  }

  get = (): string => {
    this.pull();
    return this.value;
  };

  set = (v: string): void => {
    this.pull();
    if (v === this.value) return;
    this.value = v;
    this.tell();
  };

  /** The owner changed the text in place; `read` gives its current text (called lazily, at most once per change). */
  changed = (read: () => string): void => {
    this.read = read;
    this.lastChange = performance.now();
    this.timer ??= setTimeout(this.settle, this.settleMs);
  };

  /** Tells subscribers now of a change not yet told (before the page is hidden or the owner goes away). */
  flush = (): void => {
    this.pull();
    if (this.value !== this.told) this.tell();
  };

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private pull(): void {
    const read = this.read;
    if (!read) return;
    this.read = undefined;
    this.value = read();
  }

  private tell(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.told = this.value;
    // every subscriber hears of it, also when one of them throws (the first error is passed on after)
    let failed: { error: unknown } | undefined;
    for (const l of [...this.listeners]) {
      try {
        l();
      } catch (error) {
        failed ??= { error };
      }
    }
    if (failed) throw failed.error;
  }

  /** One timer per pause, not one per keystroke: it waits again while changes keep coming. */
  private settle = (): void => {
    this.timer = undefined;
    const wait = this.lastChange + this.settleMs - performance.now();
    if (this.read && wait > 1) {
      this.timer = setTimeout(this.settle, wait);
      return;
    }
    this.flush();
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

export const editorText = new TextStore(DEFAULT_TEXT);
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
