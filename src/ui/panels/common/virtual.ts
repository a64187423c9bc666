// Windowing math for the panels' virtualised lists: which rows of a fixed-row-height list are drawn for a
// given scroll position. Pure, so it is tested without a browser.

export interface ListWindow {
  /** First row index drawn (inclusive). */
  start: number;
  /** Last row index drawn (exclusive). */
  end: number;
  /** Pixels above the first drawn row (the top spacer). */
  offsetTop: number;
  /** Height of the whole list in pixels. */
  totalHeight: number;
}

/**
 * Rows [start, end) that intersect the viewport, widened by `overscan` rows on each side and clamped to
 * [0, count). A negative or oversized scrollTop (rubber-band scrolling, a list that just shrank) is clamped.
 */
export function computeWindow(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  count: number,
  overscan = 4,
): ListWindow {
  const totalHeight = count * rowHeight;
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, offsetTop: 0, totalHeight: Math.max(0, totalHeight) };
  const maxScroll = Math.max(0, totalHeight - viewportHeight);
  const top = Math.min(Math.max(0, scrollTop), maxScroll);
  const first = Math.floor(top / rowHeight);
  const visible = Math.ceil((top + Math.max(0, viewportHeight)) / rowHeight);
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, Math.max(visible, first + 1) + overscan);
  return { start, end, offsetTop: start * rowHeight, totalHeight };
}

/** The scrollTop that brings row `index` into view (unchanged when it already is). */
export function scrollToReveal(index: number, scrollTop: number, viewportHeight: number, rowHeight: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return top + rowHeight - viewportHeight;
  return scrollTop;
}

/** Whether a list scrolled to `scrollTop` is at (or within `slack` px of) its bottom: follow new rows then. */
export function isAtBottom(scrollTop: number, viewportHeight: number, totalHeight: number, slack = 4): boolean {
  return scrollTop + viewportHeight >= totalHeight - slack;
}
