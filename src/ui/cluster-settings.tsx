// Cluster settings: the cluster's feature gates and runtime-config, in kube-apiserver's flag syntax, stored
// with the cluster (PUT <base_url>/x-playground/settings) and applied when its API server starts again (the
// browser hosts restart it right after saving). The engine checks them with the Node host's messages. The
// audit policy (an audit.k8s.io/v1 Policy) is kept with them and applies at once, without a restart.
import { useEffect, useId, useRef, useState } from 'react';
import { announceClusterSettings, readClusterSettings, SETTINGS_CHANGED_HEADER, writeClusterSettings, type ClusterSettings } from '../adapters/idb/cluster-settings.js';
import { WORKLOAD_CONTROLLER_NAMES, type WorkloadControllerName } from '../engine/controllers/names.js';
import { usePlaygroundStore } from './playground.js';

interface GateView {
  name: string;
  stage: string;
  default: boolean;
  locked: boolean;
  enabled: boolean;
}

interface SettingsView {
  featureGates: string;
  runtimeConfig: string;
  auditPolicy?: string;
  /** The policy in effect when auditPolicy is empty. */
  defaultAuditPolicy?: string;
  restartRequired?: boolean;
  inEffect: { gates: GateView[]; disabledResources: string[]; warnings: string[] };
}

const SOURCE = 'settings';

export function ClusterSettingsButton({ cluster }: { cluster: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} data-testid="cluster-settings">
        Cluster settings
      </button>
      {open && <ClusterSettingsDialog cluster={cluster} onClose={() => setOpen(false)} />}
    </>
  );
}

function ClusterSettingsDialog({ cluster, onClose }: { cluster: string; onClose: () => void }) {
  const store = usePlaygroundStore();
  const ref = useRef<HTMLDialogElement>(null);
  const ids = { title: useId(), gates: useId(), rc: useId(), audit: useId() };
  const [view, setView] = useState<SettingsView>();
  const [gates, setGates] = useState('');
  const [rc, setRc] = useState('');
  const [auditPolicy, setAuditPolicy] = useState('');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  // the inputs wait for the stored settings, so that what is typed is never overwritten when they arrive
  const [loaded, setLoaded] = useState(false);
  // the simulated cluster's controllers (kube-controller-manager's --controllers), kept with the host's cluster settings
  const [sim, setSim] = useState<ClusterSettings>();
  const [controllers, setControllers] = useState<Set<WorkloadControllerName>>(new Set(WORKLOAD_CONTROLLER_NAMES));

  const load = async () => {
    const res = await store.fetch('/x-playground/settings', { headers: { Accept: 'application/json' } }, SOURCE);
    const body = (await res.json()) as SettingsView & { message?: string };
    if (!res.ok) throw new Error(body.message ?? `${res.status}`);
    setView(body);
    return body;
  };

  useEffect(() => {
    ref.current?.showModal();
    void readClusterSettings(cluster).then((s) => {
      setSim(s);
      setControllers(new Set(s.controllers ?? WORKLOAD_CONTROLLER_NAMES));
    });
    load().then(
      (b) => {
        setGates(b.featureGates);
        setRc(b.runtimeConfig);
        setAuditPolicy(b.auditPolicy ?? '');
        setLoaded(true);
      },
      (e: unknown) => {
        setError(e instanceof Error ? e.message : String(e));
        setLoaded(true);
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const save = async () => {
    setBusy(true);
    setError(undefined);
    setNotice([]);
    try {
      let hostSettingsChanged = false;
      if (sim) {
        const list = WORKLOAD_CONTROLLER_NAMES.filter((n) => controllers.has(n));
        const next: ClusterSettings = { ...sim, controllers: list.length === WORKLOAD_CONTROLLER_NAMES.length ? undefined : list };
        if (JSON.stringify(next.controllers) !== JSON.stringify(sim.controllers)) {
          await writeClusterSettings(cluster, next);
          setSim(next);
          announceClusterSettings(cluster);
          hostSettingsChanged = true;
        }
      }
      // the header restarts this page's engine in band, before the PUT (the announcement may come later)
      const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
      if (hostSettingsChanged) headers[SETTINGS_CHANGED_HEADER] = 'true';
      const res = await store.fetch(
        '/x-playground/settings',
        { method: 'PUT', headers, body: JSON.stringify({ featureGates: gates, runtimeConfig: rc, auditPolicy }) },
        SOURCE,
      );
      const body = (await res.json()) as { message?: string; restartRequired?: boolean };
      if (!res.ok) {
        setError(body.message ?? `${res.status}`);
        return;
      }
      // the host restarts the cluster's API server: reading the settings again starts it with them
      const after = await load();
      const saved = body.restartRequired ? 'Saved. The API server restarted with these settings.' : 'Saved. The audit policy applies now.';
      setNotice([saved, ...after.inEffect.warnings.map((w) => `Warning: ${w}`)]);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const changed = (view?.inEffect.gates ?? []).filter((g) => g.enabled !== g.default);
  return (
    <dialog ref={ref} className="confirm-dialog settings-dialog" aria-labelledby={ids.title} data-testid="cluster-settings-dialog" onCancel={(e) => { e.preventDefault(); onClose(); }}>
      <h2 id={ids.title}>Cluster settings</h2>
      <p className="hint">As kube-apiserver's flags; they apply when the cluster's API server starts, which happens right after saving.</p>
      <label htmlFor={ids.gates}>--feature-gates</label>
      <input id={ids.gates} value={gates} disabled={!loaded} onChange={(e) => setGates(e.target.value)} placeholder="AllowUnsafeMalformedObjectDeletion=true,CBORServingAndStorage=true" spellCheck={false} style={{ width: '100%' }} />
      <label htmlFor={ids.rc}>--runtime-config</label>
      <input id={ids.rc} value={rc} disabled={!loaded} onChange={(e) => setRc(e.target.value)} placeholder="batch/v1=false,apps/v1/deployments=false" spellCheck={false} style={{ width: '100%' }} />
      <label htmlFor={ids.audit}>--audit-policy-file (audit.k8s.io/v1 Policy, YAML or JSON; empty: the playground's default below)</label>
      <textarea
        id={ids.audit}
        value={auditPolicy}
        disabled={!loaded}
        onChange={(e) => setAuditPolicy(e.target.value)}
        rows={8}
        spellCheck={false}
        placeholder={view?.defaultAuditPolicy ?? ''}
        style={{ width: '100%', fontFamily: 'ui-monospace, monospace' }}
        data-testid="audit-policy"
      />
      <fieldset className="settings-controllers" data-testid="simulated-controllers" disabled={!sim}>
        <legend>--controllers: the simulated cluster&apos;s controllers that run{sim && !sim.simulated ? ' (the cluster is a bare API server: none run until "simulated" is ticked)' : ''}</legend>
        {WORKLOAD_CONTROLLER_NAMES.map((name) => (
          <label key={name}>
            <input
              type="checkbox"
              checked={controllers.has(name)}
              onChange={(e) => {
                const next = new Set(controllers);
                if (e.currentTarget.checked) next.add(name);
                else next.delete(name);
                setControllers(next);
              }}
            />{' '}
            {name}
          </label>
        ))}
      </fieldset>
      {error && (
        <p role="alert" className="error" data-testid="cluster-settings-error">
          {error}
        </p>
      )}
      {notice.map((n) => (
        <p role="status" key={n}>
          {n}
        </p>
      ))}
      {view && (
        <div className="hint" data-testid="cluster-settings-in-effect">
          <p>In effect: {changed.length === 0 ? 'every gate at its default' : changed.map((g) => `${g.name}=${g.enabled}`).join(', ')}</p>
          {view.inEffect.disabledResources.length > 0 && <p>Not served: {view.inEffect.disabledResources.join(', ')}</p>}
          <details>
            <summary>Known gates ({view.inEffect.gates.length})</summary>
            <ul style={{ maxHeight: '12rem', overflow: 'auto' }}>
              {view.inEffect.gates.map((g) => (
                <li key={g.name}>
                  <code>{g.name}</code> {g.stage}
                  {g.locked ? ' (locked)' : ''}, default {String(g.default)}
                  {g.enabled !== g.default ? `, now ${String(g.enabled)}` : ''}
                </li>
              ))}
            </ul>
          </details>
        </div>
      )}
      <div className="confirm-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
        <button type="button" disabled={busy} onClick={() => void save()}>
          Save and restart
        </button>
      </div>
    </dialog>
  );
}
