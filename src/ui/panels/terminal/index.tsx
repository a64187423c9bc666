// The terminal panel: a kubectl prompt over the browser cluster. Each line runs through src/ui/terminal
// (plain HTTP requests, logged in the request console as any panel's are); output keeps kubectl's text.
// Up/Down walk the history, Ctrl+L clears, `-f -` (or `-f editor`) reads the manifest editor's text.
import { useEffect, useId, useRef, useState } from 'react';
import { usePlayground, usePlaygroundStore } from '../../playground.js';
import { editorText } from '../../editor/state.js';
import { runKubectl } from '../../terminal/kubectl.js';
import type { ResourceCatalog } from '../../terminal/resources.js';
import './terminal.css';

const SOURCE = 'terminal';
const HISTORY_KEY = 'playground.terminal.history';
const MAX_LINES = 2000;

interface Entry {
  id: number;
  command: string;
  stdout: string;
  stderr: string;
  code: number;
}

function readHistory(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(-200) : [];
  } catch {
    return [];
  }
}

export function Terminal() {
  const store = usePlaygroundStore();
  const epoch = usePlayground((s) => s.discoveryEpoch ?? 0);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [line, setLine] = useState('');
  const [busy, setBusy] = useState(false);
  const [namespace, setNamespace] = useState('default');
  const history = useRef<string[]>(readHistory());
  const cursor = useRef<number>(history.current.length);
  const catalog = useRef<ResourceCatalog | undefined>(undefined);
  const nextId = useRef(1);
  const out = useRef<HTMLDivElement>(null);
  const inputId = useId();

  // discovery changes (a CRD written anywhere in the playground) invalidate the cached resource list
  useEffect(() => {
    catalog.current = undefined;
  }, [epoch]);
  useEffect(() => {
    out.current?.scrollTo({ top: out.current.scrollHeight });
  }, [entries]);

  const run = async (command: string) => {
    const trimmed = command.trim();
    if (!trimmed) return;
    history.current = [...history.current.filter((h) => h !== trimmed), trimmed].slice(-200);
    cursor.current = history.current.length;
    try {
      localStorage.setItem(HISTORY_KEY, JSON.stringify(history.current));
    } catch {
      // storage full or disabled: the history stays in memory
    }
    if (trimmed === 'clear') {
      setEntries([]);
      return;
    }
    const ns = /^(?:kubectl |k )?config set-context --current --namespace[= ](\S+)$/.exec(trimmed);
    if (ns) {
      setNamespace(ns[1]);
      setEntries((e) => [...e, { id: nextId.current++, command: trimmed, stdout: `Context "playground" modified.\n`, stderr: '', code: 0 }]);
      return;
    }
    setBusy(true);
    try {
      const r = await runKubectl(trimmed, {
        fetch: (path, init) => store.fetch(path, init, SOURCE),
        namespace,
        editorText: editorText.get,
        catalog: catalog.current,
      });
      catalog.current = r.catalog;
      setEntries((e) => {
        const next = [...e, { id: nextId.current++, command: trimmed, stdout: r.stdout, stderr: r.stderr, code: r.code }];
        // keep the panel light: old entries go first
        let lines = 0;
        let i = next.length;
        while (i > 0 && lines < MAX_LINES) lines += (next[--i].stdout.match(/\n/g)?.length ?? 0) + 2;
        return next.slice(i);
      });
      if (/^(?:kubectl |k )?(apply|create|delete)\b/.test(trimmed) && /customresourcedefinition/i.test(r.stdout)) store.discoveryChanged();
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      const c = line;
      setLine('');
      void run(c);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (cursor.current > 0) setLine(history.current[--cursor.current] ?? '');
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (cursor.current < history.current.length) {
        cursor.current++;
        setLine(history.current[cursor.current] ?? '');
      }
    } else if (e.key === 'l' && e.ctrlKey) {
      e.preventDefault();
      setEntries([]);
    }
  };

  return (
    <div className="terminal">
      <div className="terminal-output" ref={out} role="log" aria-live="polite" aria-label="Terminal output">
        {entries.length === 0 && (
          <p className="hint">
            kubectl against this cluster: try <code>get pods -A</code>, <code>apply -f -</code> (the editor's text), <code>auth can-i list secrets</code> or{' '}
            <code>help</code>.
          </p>
        )}
        {entries.map((e) => (
          <div key={e.id} className="terminal-entry" data-code={e.code}>
            <div className="terminal-command">
              <span className="terminal-prompt" aria-hidden="true">
                $
              </span>{' '}
              kubectl {e.command.replace(/^(kubectl|k) /, '')}
            </div>
            {e.stdout && <pre className="terminal-stdout">{e.stdout}</pre>}
            {e.stderr && <pre className="terminal-stderr">{e.stderr}</pre>}
          </div>
        ))}
      </div>
      <div className="terminal-input">
        <label htmlFor={inputId} className="terminal-prompt">
          {namespace} $ kubectl
        </label>
        <input
          id={inputId}
          value={line}
          onChange={(e) => setLine(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={busy}
          spellCheck={false}
          autoComplete="off"
          aria-label="kubectl command"
          placeholder="get pods"
        />
      </div>
    </div>
  );
}
