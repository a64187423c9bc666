// The header's cluster menu: the clusters this browser has opened (switch to one, or create one by name:
// a cluster is created on its first request), rename or reset this one or delete another (each asks
// first), "Export cluster" to a file with its history and settings and "Import cluster" from such a file
// (or from a downloaded scenario link), and "Export as kubectl YAML" of the current cluster.
import { useEffect, useId, useState } from 'react';
import { usePlaygroundStore } from '../playground.js';
import { discover } from '../panels/browser/discovery.js';
import { collectObjects, exportObjects, toKubectlYaml } from './export.js';
import { DEFAULT_CLUSTER } from '../settings.js';
import { confirmDialog } from '../confirm/dialog.js';
import { ADMIN, saveActingUser } from '../auth/identity.js';
import { describeClusterFile, parseClusterFile, ClusterFileError } from './carry.js';
import { deleteCluster, exportClusterFile, importClusterFile, nameProblem, renameCluster } from './actions.js';
import { deleteClusterSettings } from '../../adapters/idb/cluster-settings.js';

const KNOWN_KEY = 'kube-playground:clusters';
const CLUSTER_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** The remembered cluster names with `name` added (sorted, unique, at most 50). Pure. */
export function rememberCluster(known: unknown, name: string): string[] {
  const list = Array.isArray(known) ? known.filter((x): x is string => typeof x === 'string' && CLUSTER_NAME.test(x)) : [];
  return [...new Set([...list, name])].sort().slice(0, 50);
}

function readKnown(): unknown {
  try {
    return JSON.parse(localStorage.getItem(KNOWN_KEY) ?? '[]');
  } catch {
    return [];
  }
}


function downloadText(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The share link in a downloaded link file, when it is one of this playground's (same origin). */
export function linkInFile(text: string, origin: string): string | undefined {
  const t = text.trim();
  if (t.length > 2_000_000 || !/^https?:\/\//.test(t) || /\s/.test(t)) return undefined;
  try {
    const url = new URL(t);
    return url.origin === origin && url.hash.startsWith('#scenario/') ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The URL of this page for another cluster (other query parameters kept). */
export function clusterUrl(href: string, cluster: string): string {
  const url = new URL(href);
  if (cluster === DEFAULT_CLUSTER) url.searchParams.delete('cluster');
  else url.searchParams.set('cluster', cluster);
  url.hash = '';
  return url.toString();
}

export function ClusterMenu({ cluster }: { cluster: string }) {
  const store = usePlaygroundStore();
  const ids = { name: useId(), rename: useId(), file: useId(), importAs: useId() };
  const [open, setOpen] = useState(false);
  const [known, setKnown] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [status, setStatus] = useState('');
  const [renaming, setRenaming] = useState(false);
  const [newName, setNewName] = useState('');
  const [importAs, setImportAs] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const next = rememberCluster(readKnown(), cluster);
    try {
      localStorage.setItem(KNOWN_KEY, JSON.stringify(next));
    } catch {
      // not kept
    }
    setKnown(next);
  }, [cluster]);

  const create = (e: React.FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    if (!CLUSTER_NAME.test(n)) {
      setStatus(`"${n}" is not a valid cluster name (a lowercase DNS label: a-z, 0-9 and "-")`);
      return;
    }
    location.assign(clusterUrl(location.href, n));
  };

  const forget = (k: string) => {
    const next = known.filter((x) => x !== k);
    try {
      localStorage.setItem(KNOWN_KEY, JSON.stringify(next));
    } catch {
      // not kept
    }
    saveActingUser(globalThis.localStorage, k, ADMIN);
    void deleteClusterSettings(k).catch(() => undefined);
    setKnown(next);
  };

  const rename = async (e: React.FormEvent) => {
    e.preventDefault();
    const to = newName.trim();
    const problem = to === cluster ? `the cluster is already called ${to}` : await nameProblem(to, known);
    if (problem) return setStatus(`Rename refused: ${problem}.`);
    setBusy(true);
    setStatus(`Renaming ${cluster} to ${to}…`);
    try {
      const warning = await renameCluster(cluster, to, deleteCluster);
      const next = rememberCluster(warning ? known : known.filter((k) => k !== cluster), to);
      try {
        localStorage.setItem(KNOWN_KEY, JSON.stringify(next));
      } catch {
        // not kept
      }
      if (warning) {
        setStatus(`Renamed with a problem: ${warning}.`);
        setBusy(false);
        return;
      }
      location.assign(clusterUrl(location.href, to));
    } catch (err) {
      setBusy(false);
      setStatus(`Rename failed, cluster ${cluster} is unchanged: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const exportFile = async () => {
    setStatus('Exporting…');
    try {
      const file = await exportClusterFile(cluster);
      downloadText(`cluster-${cluster}.kube-cluster.json`, JSON.stringify(file), 'application/json');
      setStatus(`Exported cluster ${cluster} to cluster-${cluster}.kube-cluster.json: ${file.objects.length} stored objects, history of revisions ${file.compactedRevision + 1} to ${file.revision}, settings.`);
    } catch (err) {
      setStatus(`Export failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const importFile = async (input: HTMLInputElement) => {
    const chosen = input.files?.[0];
    input.value = '';
    if (!chosen) return;
    setBusy(true);
    try {
      const text = await chosen.text();
      const link = linkInFile(text, location.origin);
      if (link) {
        // a scenario link saved as a file: opened like the link (it asks before loading anything)
        setOpen(false);
        location.assign(link);
        return;
      }
      const file = parseClusterFile(text);
      const target = importAs.trim() || file.cluster;
      const problem = await nameProblem(target, known);
      if (problem) {
        setStatus(`Import refused: ${problem}; type another name under "Import as".`);
        return;
      }
      const ok = await confirmDialog({
        title: `Import cluster ${target}?`,
        lines: describeClusterFile(file, target),
        note: 'Nothing else changes: the cluster you are in stays as it is.',
        confirmLabel: 'Import',
      });
      if (!ok) return setStatus('Import cancelled: nothing was changed.');
      await importClusterFile(file, target);
      const next = rememberCluster(known, target);
      try {
        localStorage.setItem(KNOWN_KEY, JSON.stringify(next));
      } catch {
        // not kept
      }
      setKnown(next);
      setStatus(`Imported cluster ${target}.`);
      location.assign(clusterUrl(location.href, target));
    } catch (err) {
      setStatus(`Import failed, nothing was changed: ${err instanceof ClusterFileError ? err.message : err instanceof Error ? err.message : String(err)}.`);
    } finally {
      setBusy(false);
    }
  };

  const reset = async () => {
    const ok = await confirmDialog({
      title: `Reset cluster ${cluster}?`,
      lines: [`Every object of cluster ${cluster} and its history`, 'It starts again as a fresh cluster (default namespaces and roles only).'],
      note: 'This cannot be undone. Export it first to keep its objects.',
      confirmLabel: 'Reset',
    });
    if (!ok) return setStatus('Reset cancelled: nothing was changed.');
    try {
      await deleteCluster(cluster);
      saveActingUser(globalThis.localStorage, cluster, ADMIN);
      location.reload();
    } catch (e) {
      setStatus(`Reset failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const remove = async (k: string) => {
    const ok = await confirmDialog({
      title: `Delete cluster ${k}?`,
      lines: [`Cluster ${k}: every object in it and its history`],
      note: 'This cannot be undone.',
      confirmLabel: 'Delete',
    });
    if (!ok) return setStatus(`Delete cancelled: cluster ${k} is kept.`);
    try {
      await deleteCluster(k);
      forget(k);
      setStatus(`Cluster ${k} deleted.`);
    } catch (e) {
      setStatus(`Delete failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const exportYaml = async () => {
    setStatus('Exporting…');
    try {
      const groups = await discover(store, 'export');
      const getJson = async (path: string) => {
        // the cluster's content, whoever acts now
        const res = await store.fetch(path, { headers: { Accept: 'application/json' } }, 'export', { asAdmin: true });
        if (!res.ok) throw new Error(`${res.status} from ${path}`);
        return res.json() as Promise<unknown>;
      };
      const objects = exportObjects(await collectObjects(groups.flatMap((g) => g.resources), getJson));
      const yaml = toKubectlYaml(objects, cluster);
      const url = URL.createObjectURL(new Blob([yaml], { type: 'application/yaml' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `cluster-${cluster}.yaml`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setStatus(`Exported ${objects.length} object${objects.length === 1 ? '' : 's'} to cluster-${cluster}.yaml (what every fresh cluster has is left out).`);
    } catch (e) {
      setStatus(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return (
    <span className="help-anchor">
      <button type="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        Clusters
      </button>
      {open && (
        <div
          className="popover cluster-menu"
          role="dialog"
          aria-label="Clusters"
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false);
          }}
        >
          <h4>Clusters in this browser</h4>
          <ul>
            {known.map((k) => (
              <li key={k}>
                {k === cluster ? (
                  <>
                    <strong aria-current="true">{k} (this one)</strong>{' '}
                    <button type="button" onClick={() => setRenaming((r) => !r)} aria-expanded={renaming}>
                      Rename…
                    </button>{' '}
                    <button type="button" onClick={() => void reset()}>
                      Reset…
                    </button>
                    {renaming && (
                      <form onSubmit={(e) => void rename(e)} className="acting-fields">
                        <label htmlFor={ids.rename}>New name for {k}</label>
                        <input id={ids.rename} value={newName} onChange={(e) => setNewName(e.target.value)} placeholder="demo" />
                        <button type="submit" disabled={busy}>
                          Rename
                        </button>
                      </form>
                    )}
                  </>
                ) : (
                  <>
                    <a href={clusterUrl(location.href, k)}>{k}</a>{' '}
                    <button type="button" aria-label={`Delete cluster ${k}`} onClick={() => void remove(k)}>
                      Delete…
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
          <form onSubmit={create} className="acting-fields">
            <label htmlFor={ids.name}>New cluster</label>
            <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} placeholder="demo" />
            <button type="submit">Create and switch</button>
          </form>
          <p>
            <button type="button" onClick={() => void exportFile()} title="Objects, event history, settings and acting user, to import here or in another browser">
              Export cluster
            </button>{' '}
            <button type="button" onClick={() => void exportYaml()}>
              Export as kubectl YAML
            </button>
          </p>
          <div className="acting-fields">
            <label htmlFor={ids.importAs}>Import as</label>
            <input id={ids.importAs} value={importAs} onChange={(e) => setImportAs(e.target.value)} placeholder="(the name in the file)" />
            <label htmlFor={ids.file}>Import cluster (or a scenario link file)</label>
            <input id={ids.file} type="file" accept=".json,.txt,application/json,text/plain" disabled={busy} onChange={(e) => void importFile(e.currentTarget)} />
          </div>
          <p role="status" className="hint" data-testid="cluster-status">
            {status}
          </p>
          <button type="button" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      )}
    </span>
  );
}
