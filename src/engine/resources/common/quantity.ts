// resource.Quantity: parsing to a number (enough for comparisons and QoS) and the format check.

const SUFFIX: Record<string, number> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

const QUANTITY_RE = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;

/** The value of a quantity (string or number), or null when it does not parse. */
export function parseQuantity(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const m = QUANTITY_RE.exec(v.trim() === v ? v : '');
  if (!m) return null;
  const num = Number(m[1]);
  const suffix = m[2] ?? '';
  if (/^[eE]/.test(suffix)) return num * 10 ** Number(suffix.slice(1));
  return num * SUFFIX[suffix];
}

export function isQuantity(v: unknown): boolean {
  return parseQuantity(v) !== null;
}
