import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openIdbStorage } from './idb-storage.js';
import { databaseExists } from './cluster-copy.js';
import { clusterDatabaseName, deleteClusterDatabase, deleteDatabase } from './cluster-database.js';

/** A connection that, like a tab that does not answer `versionchange`, keeps the database open. */
function holdOpen(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = indexedDB.open(name);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

describe('deleting a cluster database', () => {
  it('deletes the cluster even while an engine holds it open (the storage closes on versionchange)', async () => {
    const s = await openIdbStorage({ name: clusterDatabaseName('gone') });
    await s.write([{ kind: 'put', key: '/core/namespaces//a', object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } } }], 1);
    expect(await databaseExists(clusterDatabaseName('gone'))).toBe(true);
    await deleteClusterDatabase('gone', { blockedTimeoutMs: 1_000 });
    expect(await databaseExists(clusterDatabaseName('gone'))).toBe(false);
  });

  it('rejects naming the cluster when a connection stays open past the limit, and the deletion completes once it closes', async () => {
    const held = await holdOpen(clusterDatabaseName('held'));
    await expect(deleteClusterDatabase('held', { blockedTimeoutMs: 20 })).rejects.toThrow('cluster held is still open somewhere (another tab?)');
    expect(await databaseExists(clusterDatabaseName('held'))).toBe(true);
    held.close();
    for (let i = 0; i < 50 && (await databaseExists(clusterDatabaseName('held'))); i++) await new Promise((r) => setTimeout(r, 5));
    expect(await databaseExists(clusterDatabaseName('held'))).toBe(false);
  });

  it('without a limit, waits for the last connection to close', async () => {
    const held = await holdOpen('plain');
    let done = false;
    const deletion = deleteDatabase('plain').then(() => (done = true));
    await new Promise((r) => setTimeout(r, 30));
    expect(done).toBe(false);
    held.close();
    await deletion;
    expect(await databaseExists('plain')).toBe(false);
  });
});
