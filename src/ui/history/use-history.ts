// React access to the cluster's history (cluster-history.ts): the panels re-render when it changes, at
// most once per frame.
import { useSyncExternalStore } from 'react';
import { usePlaygroundStore } from '../playground.js';
import { clusterHistory, type HistorySnapshot } from './cluster-history.js';

export function useClusterHistory(): HistorySnapshot {
  const h = clusterHistory(usePlaygroundStore());
  return useSyncExternalStore(h.subscribe, h.get);
}
