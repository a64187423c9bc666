// Entry of the playground shell: start the API connection (service worker or in-page engine) and render.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { apiFetch, connect } from './api.js';
import { App } from './app.js';
import './styles.css';

declare global {
  interface Window {
    /** Console helper: `await playground.apiFetch('/api/v1/namespaces')` works in both engine modes. */
    playground: { apiFetch: typeof apiFetch; connect: typeof connect };
  }
}

window.playground = { apiFetch, connect };

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App connection={connect()} />
  </StrictMode>,
);
