// Roving tabindex for the playground's toolbars (the WAI-ARIA toolbar pattern): the buttons and check boxes
// of a group are one tab stop; the arrow keys (and Home/End) move between them, and the group remembers
// the last one used. Text fields and selects stay tab stops of their own (their arrow keys are theirs), and
// whatever sits in a popover, menu or dialog opened from the group is left alone.
import { useEffect, type RefObject } from 'react';

/** The items that rove: buttons and check boxes (and radios), enabled or not (a disabled one is skipped). */
const ITEM = 'button, input[type="checkbox"], input[type="radio"], a[href], [data-roving-item]';
/** Content opened from a group (popovers, menus, dialogs) keeps its own tab order. */
const NESTED = '[role="dialog"], dialog, [role="menu"], [role="listbox"], [role="tablist"], [data-roving-skip]';

/** The roving items of `group`, in document order, excluding those inside nested popovers. */
export function rovingItems(group: HTMLElement): HTMLElement[] {
  return [...group.querySelectorAll<HTMLElement>(ITEM)].filter((el) => {
    const nested = el.parentElement?.closest(NESTED);
    return !nested || !group.contains(nested) || nested === group;
  });
}

function usable(el: HTMLElement): boolean {
  return !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0;
}

/** Gives `current` tabindex 0 and every other item -1 (idempotent, so a MutationObserver may call it). */
function settle(group: HTMLElement, current: HTMLElement | undefined): HTMLElement | undefined {
  const items = rovingItems(group);
  const keep = current && items.includes(current) && usable(current) ? current : items.find(usable);
  for (const el of items) {
    const want = el === keep ? '0' : '-1';
    if (el.getAttribute('tabindex') !== want) el.setAttribute('tabindex', want);
  }
  return keep;
}

/**
 * Makes the element behind `ref` a roving-tabindex group. `orientation` picks the arrow keys (a toolbar
 * is horizontal; a vertical list uses Up/Down).
 */
export function useRovingFocus(ref: RefObject<HTMLElement | null>, orientation: 'horizontal' | 'vertical' | 'both' = 'horizontal'): void {
  useEffect(() => {
    const group = ref.current;
    if (!group) return;
    // until the user moves in the group, its first usable item is the tab stop (items may appear later)
    let current: HTMLElement | undefined;
    let touched = false;
    let scheduled = false;
    const resettle = () => {
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(() => {
        scheduled = false;
        current = settle(group, touched ? current : undefined);
      });
    };
    current = settle(group, undefined);
    const onFocus = (e: FocusEvent) => {
      const t = e.target as HTMLElement;
      if (rovingItems(group).includes(t)) {
        touched = true;
        current = t;
        settle(group, current);
      }
    };
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      const items = rovingItems(group).filter(usable);
      const i = items.indexOf(t);
      if (i < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
      const back = (orientation !== 'vertical' && e.key === 'ArrowLeft') || (orientation !== 'horizontal' && e.key === 'ArrowUp');
      const fwd = (orientation !== 'vertical' && e.key === 'ArrowRight') || (orientation !== 'horizontal' && e.key === 'ArrowDown');
      let next = -1;
      if (back) next = (i + items.length - 1) % items.length;
      else if (fwd) next = (i + 1) % items.length;
      else if (e.key === 'Home') next = 0;
      else if (e.key === 'End') next = items.length - 1;
      if (next < 0) return;
      e.preventDefault();
      current = items[next];
      settle(group, current);
      current.focus();
    };
    group.addEventListener('focusin', onFocus);
    group.addEventListener('keydown', onKey);
    const observer = new MutationObserver(resettle);
    observer.observe(group, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden'] });
    return () => {
      group.removeEventListener('focusin', onFocus);
      group.removeEventListener('keydown', onKey);
      observer.disconnect();
    };
  }, [ref, orientation]);
}
