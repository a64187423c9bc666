// A line diff (longest common subsequence, Myers' O((N+M)D) greedy algorithm) for showing how an object
// changed between two versions. Pure.

export type DiffOp = 'same' | 'add' | 'del';
export interface DiffLine {
  op: DiffOp;
  text: string;
  /** 1-based line in the old text (same/del). */
  oldLine?: number;
  /** 1-based line in the new text (same/add). */
  newLine?: number;
}

/** Splits text into lines, without a trailing empty line for a final newline. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The edit script turning `a` into `b`, as lines; deletions come before insertions at a change. */
export function diffLines(a: string[], b: string[], maxEdits = 4000): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    // Past `maxEdits` the texts are unrelated enough: show all old lines removed and all new ones added.
    if (d > maxEdits) return [...a.map((text, i) => ({ op: 'del' as const, text, oldLine: i + 1 })), ...b.map((text, i) => ({ op: 'add' as const, text, newLine: i + 1 }))];
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])) x = v[offset + k + 1];
      else x = v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk the trace backwards to recover the path.
  const out: DiffLine[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d];
    const k = x - y;
    let prevK: number;
    if (k === -d || (k !== d && vd[offset + k - 1] < vd[offset + k + 1])) prevK = k + 1;
    else prevK = k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ op: 'same', text: a[x - 1], oldLine: x, newLine: y });
      x--;
      y--;
    }
    if (d === 0) break;
    if (x === prevX) out.push({ op: 'add', text: b[y - 1], newLine: y });
    else out.push({ op: 'del', text: a[x - 1], oldLine: x });
    x = prevX;
    y = prevY;
  }
  out.reverse();
  // Put deletions before insertions inside each run of changes (reads like a unified diff).
  for (let i = 0; i < out.length; ) {
    if (out[i].op === 'same') {
      i++;
      continue;
    }
    let j = i;
    while (j < out.length && out[j].op !== 'same') j++;
    const run = out.slice(i, j);
    const dels = run.filter((l) => l.op === 'del');
    const adds = run.filter((l) => l.op === 'add');
    out.splice(i, j - i, ...dels, ...adds);
    i = j;
  }
  return out;
}

/** Counts of added and removed lines. */
export function diffStats(lines: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.op === 'add') added++;
    else if (l.op === 'del') removed++;
  }
  return { added, removed };
}
