// The header's cluster menu: the clusters this browser has opened (switch to one, or create one by name:
// a cluster is created on its first request), and "Export as kubectl YAML" of the current cluster.
import { useEffect, useId, useState } from 'react';
import { usePlaygroundStore } from '../playground.js';
import { discover } from '../panels/browser/discovery.js';
import { collectObjects, exportObjects, toKubectlYaml } from './export.js';
import { DEFAULT_CLUSTER } from '../settings.js';

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
  const ids = { name: useId() };
  const [open, setOpen] = useState(false);
  const [known, setKnown] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [status, setStatus] = useState('');

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
                  <strong aria-current="true">{k} (this one)</strong>
                ) : (
                  <a href={clusterUrl(location.href, k)}>{k}</a>
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
            <button type="button" onClick={() => void exportYaml()}>
              Export as kubectl YAML
            </button>
          </p>
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
