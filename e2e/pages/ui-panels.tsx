// A small page that mounts the playground panels (src/ui/panels) over the real engine connection (service
// worker, or the in-page engine) with a PlaygroundStore of its own, so e2e/ui-panels.spec.ts does not depend
// on the frame. It shows what the panels hand to the frame (editor text, selection) for the tests to read.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { connect, type ApiConnection } from '../../src/ui/api.js';
import { PlaygroundContext, PlaygroundStore, usePlayground } from '../../src/ui/playground.js';
import { ResourceBrowser } from '../../src/ui/panels/browser/index.js';
import { CelEvaluator } from '../../src/ui/panels/cel/index.js';
import { ManagedFieldsViewer } from '../../src/ui/panels/managed-fields/index.js';
import { WatchTimeline } from '../../src/ui/panels/timeline/index.js';

declare global {
  interface Window {
    uiPanels?: { store: PlaygroundStore; connection: ApiConnection };
  }
}

const store = new PlaygroundStore();
const panels = new URLSearchParams(location.search).get('panels')?.split(',') ?? ['browser', 'timeline', 'managed-fields', 'cel'];

function FrameEcho() {
  const editor = usePlayground((s) => s.editorRequest);
  const selected = usePlayground((s) => s.selected);
  const theme = usePlayground((s) => s.theme);
  return (
    <div style={{ display: 'flex', gap: '1rem', fontSize: 12 }}>
      <button type="button" onClick={() => store.setTheme(theme === 'light' ? 'dark' : 'light')}>
        Theme: {theme}
      </button>
      <span data-testid="selected">{selected ? JSON.stringify(selected) : 'nothing selected'}</span>
      <details>
        <summary>Editor text (seq {editor?.seq ?? 0})</summary>
        <pre data-testid="editor-request">{editor?.text ?? ''}</pre>
      </details>
    </div>
  );
}

function Page({ conn }: { conn: ApiConnection }) {
  const theme = usePlayground((s) => s.theme);
  const [ready] = useState(true);
  return (
    <div data-theme={theme} style={{ background: theme === 'dark' ? '#16181d' : '#fff', padding: 8, display: 'flex', flexDirection: 'column', gap: 16 }}>
      <header>
        <strong>Playground panels</strong> <span data-testid="engine-mode">{conn.mode}</span> {ready && <span data-testid="panels-ready">ready</span>}
        <FrameEcho />
      </header>
      {panels.includes('browser') && <ResourceBrowser />}
      {panels.includes('timeline') && <WatchTimeline />}
      {panels.includes('managed-fields') && <ManagedFieldsViewer />}
      {panels.includes('cel') && <CelEvaluator />}
    </div>
  );
}

connect().then((conn) => {
  window.uiPanels = { store, connection: conn };
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <PlaygroundContext.Provider value={store}>
        <Page conn={conn} />
      </PlaygroundContext.Provider>
    </StrictMode>,
  );
});
