// A small YAML writer that remembers, for every output line, which field of the object it shows. The
// managed-fields blame view needs this mapping (js-yaml's `dump` gives text only). Block style like kubectl:
// maps as `key: value`, lists as `- item`, multi-line strings as literal blocks. Pure.

/** A path into a JSON value: field names and list indexes. */
export type Seg = string | number;

export interface YamlLine {
  text: string;
  /** The field (or list item) this line shows. */
  path: Seg[];
  /** When the line starts a list item whose first field shares the line (`- name: x`), the item's path. */
  itemPath?: Seg[];
}

const RESERVED = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;
const NUMBERISH = /^[-+]?(?:\.?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|0x[0-9a-fA-F_]+|0o[0-7_]+|\.inf|\.Inf|\.INF|\.nan|\.NaN|\.NAN)$/;
const PLAIN_START = /^[A-Za-z0-9_./(=+$^-]/;

/** Whether `s` can be written unquoted and read back as the same string. */
export function isPlainSafe(s: string): boolean {
  if (s === '' || RESERVED.test(s) || NUMBERISH.test(s)) return false;
  if (/^\s|\s$/.test(s) || /[\n\r\t]/.test(s)) return false;
  if (!PLAIN_START.test(s) || /^-(\s|$)/.test(s)) return false;
  // `a: b` starts a mapping, ` #` a comment, a final `:` a key.
  return !/: | #|:$/.test(s);
}

export function scalarText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return isPlainSafe(v) ? v : JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isEmptyCollection(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (isMap(v) && Object.keys(v).length === 0);
}

function inlineValue(v: unknown): string {
  if (Array.isArray(v)) return '[]';
  if (isMap(v)) return '{}';
  return scalarText(v);
}

/** Literal block for strings with newlines (`|`, `|-` without a final newline). */
function literalBlock(s: string, indent: string): string[] | undefined {
  if (!s.includes('\n') || /[^\S\n ]/.test(s.replace(/\t/g, ''))) return undefined;
  if (/^\s/.test(s)) return undefined;
  const keep = s.endsWith('\n');
  const body = keep ? s.slice(0, -1) : s;
  if (body.endsWith('\n')) return undefined;
  return [keep ? '|' : '|-', ...body.split('\n').map((l) => (l === '' ? '' : indent + l))];
}

export function yamlLines(value: unknown): YamlLine[] {
  const out: YamlLine[] = [];

  const writeScalarAfter = (prefix: string, v: unknown, path: Seg[], childIndent: string, itemPath?: Seg[]) => {
    if (typeof v === 'string') {
      const block = literalBlock(v, childIndent);
      if (block) {
        out.push({ text: `${prefix} ${block[0]}`, path, itemPath });
        for (const l of block.slice(1)) out.push({ text: l, path });
        return;
      }
    }
    out.push({ text: `${prefix} ${inlineValue(v)}`, path, itemPath });
  };

  const writeMap = (m: Record<string, unknown>, path: Seg[], indent: string, firstPrefix?: string, itemPath?: Seg[]) => {
    let first = true;
    for (const [k, v] of Object.entries(m)) {
      const lead = first && firstPrefix !== undefined ? firstPrefix : indent;
      const ip = first ? itemPath : undefined;
      first = false;
      const p = [...path, k];
      const key = scalarText(k);
      if (isEmptyCollection(v) || (!isMap(v) && !Array.isArray(v))) {
        writeScalarAfter(`${lead}${key}:`, v, p, indent + '  ', ip);
      } else {
        out.push({ text: `${lead}${key}:`, path: p, itemPath: ip });
        if (isMap(v)) writeMap(v, p, indent + '  ');
        else writeList(v as unknown[], p, indent + '  ');
      }
    }
  };

  const writeList = (l: unknown[], path: Seg[], indent: string) => {
    l.forEach((item, i) => {
      const p = [...path, i];
      if (isMap(item) && Object.keys(item).length > 0) {
        writeMap(item, p, indent + '  ', `${indent}- `, p);
      } else if (Array.isArray(item) && item.length > 0) {
        out.push({ text: `${indent}-`, path: p });
        writeList(item, p, indent + '  ');
      } else {
        writeScalarAfter(`${indent}-`, item, p, indent + '  ');
      }
    });
  };

  if (isMap(value) && Object.keys(value).length > 0) writeMap(value, [], '');
  else if (Array.isArray(value) && value.length > 0) writeList(value, [], '');
  else out.push({ text: inlineValue(value), path: [] });
  return out;
}

/** The text of yamlLines, newline-terminated. */
export function yamlText(value: unknown): string {
  return yamlLines(value).map((l) => l.text + '\n').join('');
}
