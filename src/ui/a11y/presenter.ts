// The presenter layout and the keyboard switching between panels. The layout choice is kept per browser
// (localStorage); the shortcuts are chosen so that none of them is bound by Monaco (checked against its
// keybindings: it binds Alt+PageUp/PageDown and Ctrl+PageUp/PageDown, but no Alt+digit, Alt+Shift+P or
// Alt+Shift+PageUp/PageDown).

export const PRESENTER_KEY = 'kube-playground:presenter';

/** The saved layout choice (normal when nothing is saved or storage is unavailable). */
export function readPresenter(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): boolean {
  try {
    return storage?.getItem(PRESENTER_KEY) === 'on';
  } catch {
    return false;
  }
}

export function writePresenter(on: boolean, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(PRESENTER_KEY, on ? 'on' : 'off');
  } catch {
    // not kept
  }
}

export type PanelShortcut = { type: 'presenter' } | { type: 'view'; index: number } | { type: 'step'; delta: 1 | -1 };

/** The key parts of a keyboard event the shortcuts look at. */
export interface KeyLike {
  key: string;
  code: string;
  altKey: boolean;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/**
 * What a key press means for the frame, if anything: Alt+Shift+P toggles the presenter layout, Alt+1..9
 * goes to view N (of `views`), Alt+Shift+PageUp/PageDown to the previous/next view. `code` is used for the
 * digits and P, so the shortcuts work whatever character the layout (or macOS's Option key) produces.
 */
export function panelShortcut(e: KeyLike, views: number): PanelShortcut | undefined {
  if (!e.altKey || e.ctrlKey || e.metaKey) return undefined;
  if (e.shiftKey && e.code === 'KeyP') return { type: 'presenter' };
  if (e.shiftKey && e.key === 'PageDown') return { type: 'step', delta: 1 };
  if (e.shiftKey && e.key === 'PageUp') return { type: 'step', delta: -1 };
  const digit = /^Digit([1-9])$/.exec(e.code);
  if (!e.shiftKey && digit) {
    const index = Number(digit[1]) - 1;
    return index < views ? { type: 'view', index } : undefined;
  }
  return undefined;
}

/** The view `delta` steps from `current`, wrapping around. */
export function stepView(current: number, delta: number, views: number): number {
  return (((current + delta) % views) + views) % views;
}
