// The in-app confirm dialog for destructive actions: a modal <dialog> (focus kept inside, Escape cancels)
// that says what will go and asks first. Cancel has the focus when it opens, so Enter or Escape keeps
// everything. Imperative (`await confirmDialog(...)`), so any panel or the frame can ask without a provider.
import { useEffect, useId, useRef } from 'react';
import { createRoot } from 'react-dom/client';

export interface ConfirmOptions {
  /** e.g. "Delete namespace team-a?" */
  title: string;
  /** What will be destroyed, one line each (names, kinds and counts). */
  lines: string[];
  /** A sentence under the list (e.g. "This cannot be undone."). */
  note?: string;
  /** The confirming button's label, e.g. "Delete". */
  confirmLabel: string;
  /** At most this many lines are listed; the rest are counted. */
  maxLines?: number;
}

function ConfirmView({ options, done }: { options: ConfirmOptions; done: (ok: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const ids = { title: useId(), body: useId() };
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) d.showModal();
    cancelRef.current?.focus();
  }, []);
  const max = options.maxLines ?? 12;
  const shown = options.lines.slice(0, max);
  const more = options.lines.length - shown.length;
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={ids.title}
      aria-describedby={ids.body}
      data-testid="confirm-dialog"
      onCancel={(e) => {
        e.preventDefault();
        done(false);
      }}
    >
      <h2 id={ids.title}>{options.title}</h2>
      <div id={ids.body}>
        <ul>
          {shown.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
          {more > 0 && <li>and {more} more</li>}
        </ul>
        {options.note && <p>{options.note}</p>}
      </div>
      <div className="confirm-actions">
        <button type="button" ref={cancelRef} autoFocus onClick={() => done(false)}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={() => done(true)}>
          {options.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** Shows the dialog; resolves true when the user confirms, false on Cancel, Escape or `signal` aborting. */
export function confirmDialog(options: ConfirmOptions, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    let settled = false;
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      root.unmount();
      host.remove();
      previous?.focus?.();
      resolve(ok);
    };
    signal?.addEventListener('abort', () => done(false), { once: true });
    root.render(<ConfirmView options={options} done={done} />);
  });
}
