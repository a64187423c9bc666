// The heap in use after full garbage collections (V8's gc, exposed for this process): what the scale bench
// and the engine's heap test (src/adapters/memory/memory-heap.test.ts) compare with the JSON a cluster holds.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
