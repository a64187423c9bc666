// Entry of the playground: start the API connection (service worker or in-page engine) and render the
// frame. Monaco and the panels are loaded later (dynamic imports), never in the first paint.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { apiFetch, connect, markStartup } from './api.js';
import { App, initialTheme } from './app.js';
import { PlaygroundStore } from './playground.js';
import { ErrorBoundary } from './error-boundary.js';
import { editorSettings, editorText } from './editor/state.js';
import { loadSessionAtStart } from './share/use-scenario.js';
import './styles.css';

declare global {
  interface Window {
    /** Console helper: `await playground.apiFetch('/api/v1/namespaces')` works in both engine modes. */
    playground: {
      apiFetch: typeof apiFetch;
      connect: typeof connect;
      /** The UI's store (requests logged by the console, selection, theme). */
      store: PlaygroundStore;
      /** The manifest editor's text and settings (scripts and tests set them directly). */
      editor: { getText(): string; setText(text: string): void; settings: typeof editorSettings };
    };
  }
}

markStartup('script');
const theme = initialTheme();
document.documentElement.dataset.theme = theme;
const store = new PlaygroundStore({ theme });
window.playground = { apiFetch, connect, store, editor: { getText: editorText.get, setText: editorText.set, settings: editorSettings } };

loadSessionAtStart(); // the editor's text before the first render (a link in the URL is decoded later)

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <ErrorBoundary>
      <App connection={connect()} store={store} />
    </ErrorBoundary>
  </StrictMode>,
);
