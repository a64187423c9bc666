// The Monaco editor, loaded lazily (this module and Monaco are one dynamic chunk, never in the first
// paint): YAML with completion, hover and validation from JSON Schemas (monaco-yaml), the playground's
// theme, and the action shortcuts.
import { useEffect, useRef, useState } from 'react';
import * as monaco from './monaco-core.js';
import { configureMonacoYaml, type MonacoYaml } from 'monaco-yaml';
import EditorWorker from 'monaco-editor/editor/editor.worker.js?worker';
// Monaco 0.57's own adapter from the older createWebWorker({ label, moduleId, createData }) options, which
// monaco-yaml 5.5 still passes, to the new createWebWorker({ worker }) (it posts createData first).
// @ts-expect-error: internal module without type declarations
import { createWebWorker as createLegacyWebWorker } from 'monaco-editor/internal/common/workers.js';
import type { JsonSchema } from './schemas.js';
import type { TextStore } from './state.js';

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker };
  }
}

window.MonacoEnvironment = {
  getWorker(_id: string, label: string): Worker {
    if (label === 'yaml') return new Worker(new URL('./vendor/yaml-worker.js', import.meta.url), { type: 'module', name: 'yaml' });
    return new EditorWorker();
  },
};

const SCHEMA_URI = 'playground://schemas/kubernetes.json';
let yaml: MonacoYaml | undefined;

function setSchema(schema: JsonSchema | undefined): void {
  const options = {
    enableSchemaRequest: false,
    hover: true,
    completion: true,
    validate: true,
    isKubernetes: true,
    schemas: schema ? [{ uri: SCHEMA_URI, fileMatch: ['**/manifest.yaml'], schema: schema as never }] : [],
  };
  if (!yaml) {
    const withLegacyWorkers = { ...monaco, editor: { ...monaco.editor, createWebWorker: createLegacyWebWorker as typeof monaco.editor.createWebWorker } };
    yaml = configureMonacoYaml(withLegacyWorkers, options);
  }
  else void yaml.update(options);
}

export type ShortcutAction = 'apply' | 'save' | 'help';

export interface MonacoViewProps {
  /** The text: Monaco owns it while it is typed in (uncontrolled: a keystroke re-renders nothing), tells
   *  the store of each change without reading it, and takes in the store's changes from elsewhere. */
  text: TextStore;
  theme: 'light' | 'dark';
  schema?: JsonSchema;
  onShortcut(action: ShortcutAction): void;
  label: string;
  /** The text size in px (larger in the presenter layout). */
  fontSize?: number;
}

export default function MonacoView({ text, theme, schema, onShortcut, label, fontSize = 13 }: MonacoViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const latest = useRef({ onShortcut });
  latest.current = { onShortcut };
  // a change from elsewhere that Monaco cannot take fails this view's render, so the editor panel's error
  // boundary shows it (a store listener's throw would reach only whoever set the text)
  const [failure, setFailure] = useState<{ error: unknown }>();
  if (failure) throw failure.error;

  useEffect(() => {
    if (!host.current) return;
    const model = monaco.editor.createModel(text.get(), 'yaml', monaco.Uri.parse('file:///manifest.yaml'));
    const ed = monaco.editor.create(host.current, {
      model,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize,
      // the dimmed number of the last empty line is below AA contrast
      renderFinalNewline: 'on',
      scrollBeyondLastLine: false,
      tabSize: 2,
      ariaLabel: label,
      theme: theme === 'dark' ? 'vs-dark' : 'vs',
      quickSuggestions: { other: true, comments: false, strings: true },
      // no inline (ghost text) completion provider is registered here (monaco-yaml has none), but with this on
      // Monaco's inline-completions model still recomputes on every keystroke while the suggestion list is
      // open (about a fifth of the keystroke's work in a trace); off, nothing visible changes
      inlineSuggest: { enabled: false },
    });
    editor.current = ed;
    // a keystroke only marks the text changed: it is read from the model when someone asks for it
    const read = () => model.getValue();
    const sub = model.onDidChangeContent(() => text.changed(read));
    // a change from elsewhere (a panel, a link, a conflict resolution): one undoable edit
    const unsubscribe = text.subscribe(() => {
      try {
        const value = text.get();
        if (model.getValue() !== value) model.pushEditOperations([], [{ range: model.getFullModelRange(), text: value }], () => null);
      } catch (error) {
        setFailure({ error });
      }
    });
    ed.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onShortcut('apply'));
    ed.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => latest.current.onShortcut('save'));
    ed.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Slash | monaco.KeyMod.Shift, () => latest.current.onShortcut('help'));
    host.current.dataset.ready = 'true';
    return () => {
      unsubscribe();
      sub.dispose();
      text.flush(); // what was typed last is in the store before the model goes
      ed.dispose();
      model.dispose();
      editor.current = null;
    };
    // created once; theme/schema/font changes are applied below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    monaco.editor.setTheme(theme === 'dark' ? 'vs-dark' : 'vs');
  }, [theme]);

  useEffect(() => {
    setSchema(schema);
  }, [schema]);

  useEffect(() => {
    editor.current?.updateOptions({ fontSize });
  }, [fontSize]);

  return <div ref={host} className="monaco-host" data-testid="monaco" />;
}
