// The share button, and the loading/saving of the scenario (share link, else the last local session).
import { useEffect, useState } from 'react';
import { DEFAULT_SETTINGS, DEFAULT_TEXT, editorLoaded, editorSettings, editorText, sanitizeSettings } from '../editor/state.js';
import { changedSettings, encodeScenario, initialScenario, parseSession, SESSION_KEY, shareUrl, ShareLinkError, type Scenario } from './share.js';
import { confirmDialog } from '../confirm/dialog.js';

function storedSession(): string | null {
  try {
    return localStorage.getItem(SESSION_KEY);
  } catch {
    return null;
  }
}

function lineCount(text: string): string {
  const n = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return `${n} line${n === 1 ? '' : 's'}`;
}

/**
 * A link replaces the editor's text: when that text is the user's own (not empty, not the default, not
 * already the link's), ask first.
 */
function confirmReplace(current: string, link: Scenario, signal: AbortSignal): Promise<boolean> {
  if (current.trim() === '' || current === DEFAULT_TEXT || current === link.text) return Promise.resolve(true);
  return confirmDialog({
    title: 'Open the shared scenario?',
    lines: [`It replaces the editor's text (${lineCount(current)}) with the link's (${lineCount(link.text)}).`],
    note: 'Cancel keeps your text; the link stays in the address bar.',
    confirmLabel: 'Replace',
  }, signal);
}

/** Loads the scenario of the URL fragment (or the local session) into the editor, once and on hashchange. */
export function useScenario(): string | undefined {
  const [warning, setWarning] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    const abort = new AbortController();
    const load = async (first: boolean) => {
      const hash = location.hash;
      if (!first && !hash) return;
      const stored = first ? storedSession() : null;
      const r = await initialScenario(hash, stored, { text: first ? DEFAULT_TEXT : editorText.get(), settings: first ? {} : editorSettings.get() });
      if (!live) return;
      if (r.source === 'link') {
        const current = first ? (parseSession(stored)?.text ?? DEFAULT_TEXT) : editorText.get();
        if (!(await confirmReplace(current, r.scenario, abort.signal))) {
          if (!live) return;
          if (first) {
            const session = parseSession(stored);
            editorText.set(session?.text ?? DEFAULT_TEXT);
            editorSettings.set(sanitizeSettings(session?.settings ?? {}));
          }
          setWarning(undefined);
          editorLoaded.set(true);
          return;
        }
        if (!live) return;
      }
      if (first || r.source === 'link') {
        editorText.set(r.scenario.text);
        editorSettings.set(sanitizeSettings(r.scenario.settings));
      }
      setWarning(r.warning);
      editorLoaded.set(true);
    };
    // a link that fails in an unforeseen way still leaves a usable editor, with the reason shown
    const safeLoad = (first: boolean) =>
      load(first).catch((err: unknown) => {
        if (!live) return;
        setWarning(`The shared link could not be opened: ${err instanceof Error ? err.message : String(err)}.`);
        editorLoaded.set(true);
      });
    void safeLoad(true);
    const onHash = () => void safeLoad(false);
    window.addEventListener('hashchange', onHash);
    // the session is saved as it changes (debounced)
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!editorLoaded.get()) return;
        try {
          localStorage.setItem(SESSION_KEY, JSON.stringify({ text: editorText.get(), settings: changedSettings(editorSettings.get(), DEFAULT_SETTINGS) }));
        } catch {
          // storage full or denied: sessions are a convenience
        }
      }, 300);
    };
    const subs = [editorText.subscribe(save), editorSettings.subscribe(save)];
    return () => {
      live = false;
      abort.abort();
      clearTimeout(timer);
      window.removeEventListener('hashchange', onHash);
      subs.forEach((u) => u());
    };
  }, []);
  return warning;
}

export function ShareButton() {
  const [message, setMessage] = useState('');
  const share = async () => {
    let fragment: string;
    try {
      fragment = await encodeScenario({ text: editorText.get(), settings: changedSettings(editorSettings.get(), DEFAULT_SETTINGS) as Record<string, string | boolean> });
    } catch (err) {
      setMessage(err instanceof ShareLinkError ? `No share link: ${err.message}.` : 'No share link: the text could not be packed.');
      return;
    }
    const url = shareUrl(location.href, fragment);
    history.replaceState(null, '', url);
    try {
      await navigator.clipboard.writeText(url);
      setMessage('Share link copied to the clipboard.');
      setTimeout(() => setMessage(''), 4000);
    } catch {
      setMessage('Share link is in the address bar.');
    }
  };
  return (
    <span className="share">
      <button type="button" onClick={() => void share()}>
        Share
      </button>
      <span role="status" className="toast" data-testid="share-status">
        {message}
      </span>
    </span>
  );
}
