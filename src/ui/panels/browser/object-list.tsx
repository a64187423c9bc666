// The resource browser's object list: the server's Table rows with a name filter, virtualised
// (@tanstack/react-virtual) so that a collection of 10,000 objects draws only the rows in view. The rows are
// one tab stop: Up/Down/Home/End/PageUp/PageDown move (scrolling the row into view), Space selects, Enter
// opens in the editor.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { TableView } from './discovery.js';

export type ObjectRow = TableView['rows'][number];

/** Rows whose name contains `query` (case-insensitive; an empty query keeps them all). */
export function filterRows(rows: ObjectRow[], query: string): ObjectRow[] {
  const q = query.trim().toLowerCase();
  if (!q) return rows;
  return rows.filter((r) => r.name.toLowerCase().includes(q));
}

/** The height of one row in px (the panels' 13px type, one line, 2px padding and a border). */
const ROW_HEIGHT = 23;

export function ObjectList(props: {
  table: TableView | undefined;
  /** Show the namespace column (all namespaces of a namespaced resource). */
  namespaceColumn: boolean;
  /** The empty-list message. */
  emptyText: string;
  cellText(value: unknown, type: string): string;
  isSelected(row: ObjectRow): boolean;
  onSelect(row: ObjectRow): void;
  onOpen(row: ObjectRow): void;
}) {
  const { table, namespaceColumn, emptyText, cellText, isSelected, onSelect, onOpen } = props;
  const filterId = useId();
  const [query, setQuery] = useState('');
  // typing stays responsive while a large list is filtered
  const deferred = useDeferredValue(query);
  const all = table?.rows ?? [];
  const rows = useMemo(() => filterRows(all, deferred), [all, deferred]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const [active, setActive] = useState(0);
  const focusAfterRender = useRef(false);
  const activeIndex = Math.min(active, Math.max(0, rows.length - 1));
  useEffect(() => {
    if (!focusAfterRender.current) return;
    // the row may be drawn only after the scroll it caused (a later render): keep trying until then
    const row = scroller.current?.querySelector<HTMLElement>(`tr[data-index="${activeIndex}"]`);
    if (!row) return;
    focusAfterRender.current = false;
    row.focus();
  });

  const move = (to: number) => {
    const i = Math.max(0, Math.min(rows.length - 1, to));
    setActive(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
    focusAfterRender.current = true;
  };
  const pageRows = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);

  const items = virtualizer.getVirtualItems();
  const padTop = items.length ? items[0].start : 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const columns = (namespaceColumn ? 1 : 0) + (table?.columns.length ?? 0);

  return (
    <>
      <div className="pp-toolbar">
        <label htmlFor={filterId}>Filter by name</label>
        <input
          id={filterId}
          type="search"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
            virtualizer.scrollToOffset(0);
          }}
          placeholder="part of a name"
          data-testid="object-filter"
        />
        <span className="pp-muted" aria-live="polite" data-testid="object-count">
          {table ? (deferred.trim() ? `${rows.length} of ${all.length} objects` : `${all.length} objects`) : ''}
        </span>
      </div>
      <div className="pp-scroll object-list" ref={scroller} data-testid="objects-scroll">
        <table aria-label="Objects" data-testid="objects-table" aria-rowcount={rows.length + 1}>
          <thead>
            <tr aria-rowindex={1}>
              {namespaceColumn && <th scope="col">Namespace</th>}
              {(table?.columns ?? []).map((c) => (
                <th key={c.name} scope="col">
                  {c.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {padTop > 0 && (
              <tr aria-hidden="true" className="object-list-pad">
                <td colSpan={columns} style={{ height: padTop, padding: 0, border: 'none' }} />
              </tr>
            )}
            {items.map((item) => {
              const row = rows[item.index];
              return (
                <tr
                  key={`${row.namespace ?? ''}/${row.name}`}
                  data-index={item.index}
                  aria-rowindex={item.index + 2}
                  aria-selected={isSelected(row)}
                  tabIndex={item.index === activeIndex ? 0 : -1}
                  style={{ height: ROW_HEIGHT }}
                  onClick={() => {
                    setActive(item.index);
                    onSelect(row);
                  }}
                  onDoubleClick={() => onOpen(row)}
                  onKeyDown={(e) => {
                    const to =
                      e.key === 'ArrowDown' ? item.index + 1
                      : e.key === 'ArrowUp' ? item.index - 1
                      : e.key === 'Home' ? 0
                      : e.key === 'End' ? rows.length - 1
                      : e.key === 'PageDown' ? item.index + pageRows
                      : e.key === 'PageUp' ? item.index - pageRows
                      : undefined;
                    if (to !== undefined) {
                      e.preventDefault();
                      move(to);
                    } else if (e.key === 'Enter') onOpen(row);
                    else if (e.key === ' ') {
                      e.preventDefault();
                      onSelect(row);
                    }
                  }}
                >
                  {namespaceColumn && <td>{row.namespace}</td>}
                  {row.cells.map((c, i) => (
                    <td key={i}>{cellText(c, table!.columns[i]?.type ?? 'string')}</td>
                  ))}
                </tr>
              );
            })}
            {padBottom > 0 && (
              <tr aria-hidden="true" className="object-list-pad">
                <td colSpan={columns} style={{ height: padBottom, padding: 0, border: 'none' }} />
              </tr>
            )}
            {table && rows.length === 0 && (
              <tr>
                <td colSpan={Math.max(1, columns)} className="pp-muted">
                  {all.length === 0 ? emptyText : `No object's name contains "${deferred.trim()}".`}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
