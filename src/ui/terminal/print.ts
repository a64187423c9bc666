// kubectl's output forms: tables written as its tabwriter writes them (columns padded to the widest cell plus
// three spaces, the last column not padded), YAML as sigs.k8s.io/yaml writes it (the same encoder the engine
// uses for application/yaml), JSON indented by four spaces.

import { encodeYaml } from '../../engine/codec/encode-yaml.js';

/** Rows of cells to text, as text/tabwriter with padding 3 (kubectl's printers). */
export function tabwrite(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  return rows
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i] - [...c].length + 3))).join(''))
    .map((l) => l + '\n')
    .join('');
}

export function toYaml(value: unknown): string {
  return encodeYaml(value);
}

/** kubectl -o json: Go's json.MarshalIndent with four spaces, HTML characters escaped as Go escapes them. */
export function toJson(value: unknown): string {
  return (
    JSON.stringify(value, null, 4)
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026') + '\n'
  );
}

/** A Table cell as kubectl prints it (printers.tablePrinter: fmt %v of the JSON value). */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '<none>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(cellText).join(' ')}]`;
  return JSON.stringify(v);
}

/** Labels as kubectl's --show-labels writes them: `k=v,k2=v2` sorted, or `<none>`. */
export function labelsText(labels: Record<string, string> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  return keys.length ? keys.map((k) => `${k}=${labels![k]}`).join(',') : '<none>';
}
