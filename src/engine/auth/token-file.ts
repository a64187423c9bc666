// The static token file of kube-apiserver's `--token-file`: CSV lines `token,user,uid,"group1,group2"`
// (k8s.io/apiserver/pkg/authentication/token/tokenfile). At least three columns; the groups column is
// optional; a blank line or one starting with `#` is skipped here for convenience.

export interface StaticToken {
  token: string;
  user: string;
  uid: string;
  groups: string[];
}

/** Splits one CSV record (RFC 4180 quoting). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function parseTokenFile(text: string): StaticToken[] {
  const tokens: StaticToken[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const f = csvFields(line);
    if (f.length < 3) throw new Error(`token file: line ${i + 1}: expected at least 3 fields (token,user,uid), got ${f.length}`);
    const token = f[0].trim();
    if (token === '') throw new Error(`token file: line ${i + 1}: empty token`);
    if (seen.has(token)) throw new Error(`token file: line ${i + 1}: duplicate token`);
    seen.add(token);
    const groups = f.length > 3 ? f[3].split(',').map((g) => g.trim()).filter((g) => g !== '') : [];
    tokens.push({ token, user: f[1], uid: f[2], groups });
  });
  return tokens;
}
