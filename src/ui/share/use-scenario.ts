// Loading the scenario at start (the share link of the URL fragment, else the last local session) and on
// hashchange, and saving the session as it changes. The session path needs only ./share.ts; a link loads
// ./open.ts (lessons, cluster objects, the confirm dialog) on demand, after the first paint.
import { useEffect, useState } from 'react';
import { DEFAULT_SETTINGS, DEFAULT_TEXT, editorLoaded, editorSettings, editorText, sanitizeSettings } from '../editor/state.js';
import { changedSettings, initialScenario, parseSession, SESSION_KEY } from './share.js';
import { usePlaygroundStore } from '../playground.js';
import { markStartup } from '../api.js';

function storedSession(): string | null {
  try {
    return localStorage.getItem(SESSION_KEY);
  } catch {
    return null;
  }
}

/** Whether loadSessionAtStart loaded the editor's first text. */
let loadedAtStart = false;

/**
 * Loads the editor's first text at once when the URL has no fragment (so no link to decode): the last local
 * session, else the default, as useScenario would, so that the first render already shows the editor.
 */
export function loadSessionAtStart(): void {
  if (location.hash || editorLoaded.get()) return;
  const session = parseSession(storedSession());
  editorText.set(session?.text ?? DEFAULT_TEXT);
  editorSettings.set(sanitizeSettings(session?.settings ?? {}));
  markStartup('editor-loaded');
  editorLoaded.set(true);
  loadedAtStart = true;
}

/** Loads the scenario of the URL fragment (or the local session) into the editor, once and on hashchange. */
export function useScenario(): string | undefined {
  const store = usePlaygroundStore();
  const [warning, setWarning] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    const abort = new AbortController();
    const load = async (first: boolean) => {
      if (first && loadedAtStart) return;
      const hash = location.hash;
      if (!first && !hash) return;
      const stored = first ? storedSession() : null;
      const r = await initialScenario(hash, stored, { text: first ? DEFAULT_TEXT : editorText.get(), settings: first ? {} : editorSettings.get() });
      if (!live) return;
      if (r.source === 'link') {
        const current = first ? (parseSession(stored)?.text ?? DEFAULT_TEXT) : editorText.get();
        const { openWhole } = await import('./open.js');
        if (!live) return;
        const outcome = await openWhole(store, r.scenario, hash, current, abort.signal);
        if (!live) return;
        if (outcome === 'cancelled') {
          if (first) {
            const session = parseSession(stored);
            editorText.set(session?.text ?? DEFAULT_TEXT);
            editorSettings.set(sanitizeSettings(session?.settings ?? {}));
          }
        }
        setWarning(outcome === 'cancelled' ? undefined : outcome);
        editorLoaded.set(true);
        return;
      }
      if (first) {
        editorText.set(r.scenario.text);
        editorSettings.set(sanitizeSettings(r.scenario.settings));
      }
      setWarning(r.warning);
      if (first) markStartup('editor-loaded');
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
    // the session is saved as it changes (debounced), and at once when the page is hidden or closed (the
    // text typed in the last moment included: the editor tells of its text only once typing pauses)
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsaved = false;
    const write = () => {
      clearTimeout(timer);
      if (!unsaved || !editorLoaded.get()) return;
      unsaved = false;
      try {
        localStorage.setItem(SESSION_KEY, JSON.stringify({ text: editorText.get(), settings: changedSettings(editorSettings.get(), DEFAULT_SETTINGS) }));
      } catch {
        // storage full or denied: sessions are a convenience
      }
    };
    const save = () => {
      unsaved = true;
      clearTimeout(timer);
      timer = setTimeout(write, 300);
    };
    const saveNow = () => {
      editorText.flush();
      write();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') saveNow();
    };
    const subs = [editorText.subscribe(save), editorSettings.subscribe(save)];
    if (loadedAtStart) save(); // the first text is kept as a session, as when the effect loads it
    window.addEventListener('pagehide', saveNow);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      live = false;
      abort.abort();
      clearTimeout(timer);
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('pagehide', saveNow);
      document.removeEventListener('visibilitychange', onVisibility);
      subs.forEach((u) => u());
    };
  }, [store]);
  return warning;
}

