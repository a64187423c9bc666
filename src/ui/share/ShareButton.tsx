// The share button, and the loading/saving of the scenario (share link, else the last local session).
import { useEffect, useState } from 'react';
import { DEFAULT_SETTINGS, DEFAULT_TEXT, editorLoaded, editorSettings, editorText, sanitizeSettings } from '../editor/state.js';
import { changedSettings, encodeScenario, initialScenario, SESSION_KEY, shareUrl } from './share.js';

function storedSession(): string | null {
  try {
    return localStorage.getItem(SESSION_KEY);
  } catch {
    return null;
  }
}

/** Loads the scenario of the URL fragment (or the local session) into the editor, once and on hashchange. */
export function useScenario(): string | undefined {
  const [warning, setWarning] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    const load = async (first: boolean) => {
      const hash = location.hash;
      if (!first && !hash) return;
      const r = await initialScenario(hash, first ? storedSession() : null, { text: first ? DEFAULT_TEXT : editorText.get(), settings: first ? {} : editorSettings.get() });
      if (!live) return;
      if (first || r.source === 'link') {
        editorText.set(r.scenario.text);
        editorSettings.set(sanitizeSettings(r.scenario.settings));
      }
      setWarning(r.warning);
      editorLoaded.set(true);
    };
    void load(true);
    const onHash = () => void load(false);
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
    const fragment = await encodeScenario({ text: editorText.get(), settings: changedSettings(editorSettings.get(), DEFAULT_SETTINGS) as Record<string, string | boolean> });
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
