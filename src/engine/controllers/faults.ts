// Injected faults of a simulated cluster: containers told to fail and nodes told to stop. The playground's
// fail/recover endpoint (endpoints/playground-fail.ts) writes them; the simulated kubelets (nodes.ts) read
// them: a failed container exits with an error whenever it runs, until it is told to recover or its pod is
// gone; a failed node's kubelet stops posting status and renewing its Lease until the node recovers. The
// engine keeps them with the cluster (one stored record) so that a restarted engine carries on.

/** Storage key of the faults: outside every resource's key prefix. */
export const FAULTS_KEY = '/x-playground/faults//cluster';

export interface ContainerFault {
  /** The pod's uid when the fault was injected (a new pod of the same name is not affected). */
  uid: string;
  /** When the container was told to fail (ms on the injected clock). */
  since: number;
}

export interface FaultState {
  /** "<namespace>/<pod>/<container>" -> fault. */
  containers: Record<string, ContainerFault>;
  /** node name -> since (ms). */
  nodes: Record<string, number>;
}

export type FaultListener = (change: { pod?: string; node?: string }) => void;

export class Faults {
  private state: FaultState = { containers: {}, nodes: {} };
  private readonly listeners = new Set<FaultListener>();

  load(state: Partial<FaultState> | undefined): void {
    this.state = { containers: { ...(state?.containers ?? {}) }, nodes: { ...(state?.nodes ?? {}) } };
  }

  snapshot(): FaultState {
    return JSON.parse(JSON.stringify(this.state)) as FaultState;
  }

  /** The fault of a container of a pod with this uid, if it is told to fail. */
  container(namespace: string, pod: string, container: string, uid: string | undefined): ContainerFault | undefined {
    const f = this.state.containers[`${namespace}/${pod}/${container}`];
    return f && f.uid === uid ? f : undefined;
  }

  nodeFailed(node: string): boolean {
    return this.state.nodes[node] !== undefined;
  }

  /** Whether anything changed. */
  failContainer(namespace: string, pod: string, container: string, uid: string, now: number): boolean {
    const key = `${namespace}/${pod}/${container}`;
    if (this.state.containers[key]?.uid === uid) return false;
    this.state.containers[key] = { uid, since: now };
    this.emit({ pod: `${namespace}/${pod}` });
    return true;
  }

  /** Recovers one container, or every container of the pod when none is named. */
  recoverPod(namespace: string, pod: string, container?: string): boolean {
    const prefix = `${namespace}/${pod}/`;
    const keys = Object.keys(this.state.containers).filter((k) => (container === undefined ? k.startsWith(prefix) : k === prefix + container));
    for (const k of keys) delete this.state.containers[k];
    if (keys.length) this.emit({ pod: `${namespace}/${pod}` });
    return keys.length > 0;
  }

  failNode(node: string, now: number): boolean {
    if (this.state.nodes[node] !== undefined) return false;
    this.state.nodes[node] = now;
    this.emit({ node });
    return true;
  }

  recoverNode(node: string): boolean {
    if (this.state.nodes[node] === undefined) return false;
    delete this.state.nodes[node];
    this.emit({ node });
    return true;
  }

  /** Forgets the faults of pods that no longer exist (by "<namespace>/<pod>" and uid). */
  forgetPod(namespace: string, pod: string, uid: string | undefined): void {
    const prefix = `${namespace}/${pod}/`;
    for (const [k, f] of Object.entries(this.state.containers)) if (k.startsWith(prefix) && f.uid === uid) delete this.state.containers[k];
  }

  subscribe(listener: FaultListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private emit(change: { pod?: string; node?: string }): void {
    for (const l of this.listeners) l(change);
  }
}
