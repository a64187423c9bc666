// Cron schedules as a CronJob's spec.schedule is read (robfig/cron v3's standard parser, which v1.33's
// validation and controller use): five fields (minute hour day-of-month month day-of-week) with `*`, `?`,
// ranges, steps, lists and month/weekday names, the descriptors @yearly/@annually/@monthly/@weekly/
// @daily/@midnight/@hourly and `@every <duration>`. Day of month and day of week: when both are
// restricted a day matching either runs; when one starts with `*` or `?`, both must match.
// Times are read in an IANA time zone through Intl (spec.timeZone), UTC without one; nothing here reads
// the wall clock: callers pass the instants.

export interface CronSchedule {
  /** The first scheduled instant strictly after `after` (ms since the epoch), or undefined within ~5 years. */
  next(after: number): number | undefined;
}

interface Field {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MINUTE: Field = { min: 0, max: 59 };
const HOUR: Field = { min: 0, max: 23 };
const DOM: Field = { min: 1, max: 31 };
const MONTH: Field = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const DOW: Field = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** A parse error, worded as robfig/cron words it. */
export class CronParseError extends Error {}

function parseInt10(text: string): number {
  if (!/^[0-9]+$/.test(text)) throw new CronParseError(`failed to parse int from ${text}: strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  return Number(text);
}

function value(text: string, f: Field): number {
  const named = f.names?.[text.toLowerCase()];
  return named ?? parseInt10(text);
}

/** One comma-separated part: a set of values, and whether it was a bare `*`/`?` (the star bit). */
function parseRange(expr: string, f: Field): { values: Set<number>; star: boolean } {
  const [range, stepText, ...more] = expr.split('/');
  if (more.length) throw new CronParseError(`too many slashes: ${expr}`);
  const lowHigh = range.split('-');
  let start: number;
  let end: number;
  let star = false;
  if (lowHigh[0] === '*' || lowHigh[0] === '?') {
    start = f.min;
    end = f.max;
    star = true;
  } else {
    start = value(lowHigh[0], f);
    if (lowHigh.length === 1) end = start;
    else if (lowHigh.length === 2) end = value(lowHigh[1], f);
    else throw new CronParseError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (stepText !== undefined) {
    step = parseInt10(stepText);
    // "N/step" means "N-max/step"
    if (lowHigh.length === 1 && !star) end = f.max;
    if (step > 1) star = false;
  }
  if (start < f.min) throw new CronParseError(`beginning of range (${start}) below minimum (${f.min}): ${expr}`);
  if (end > f.max) throw new CronParseError(`end of range (${end}) above maximum (${f.max}): ${expr}`);
  if (start > end) throw new CronParseError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronParseError(`step of range should be a positive number: ${expr}`);
  const values = new Set<number>();
  for (let v = start; v <= end; v += step) values.add(v);
  return { values, star };
}

function parseField(text: string, f: Field): { values: Set<number>; star: boolean } {
  const out = new Set<number>();
  let star = false;
  for (const part of text.split(',')) {
    const r = parseRange(part, f);
    r.values.forEach((v) => out.add(v));
    star = star || r.star;
  }
  return { values: out, star };
}

/** Go's time.ParseDuration for the units @every takes (h, m, s, ms, us, ns), in milliseconds. */
function parseDuration(text: string): number {
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 1e-3, 'µs': 1e-3, ns: 1e-6 };
  if (!/^([0-9]*\.?[0-9]+(h|m|s|ms|us|µs|ns))+$/.test(text)) throw new CronParseError(`failed to parse duration @every ${text}: time: invalid duration ${JSON.stringify(text)}`);
  let ms = 0;
  for (const m of text.matchAll(/([0-9]*\.?[0-9]+)(ms|us|µs|ns|h|m|s)/g)) ms += Number(m[1]) * unit[m[2]];
  return ms;
}

/** Wall-clock fields of an instant in a zone (UTC when the zone is undefined). */
type Fields = { minute: number; hour: number; day: number; month: number; weekday: number };
const formatters = new Map<string, Intl.DateTimeFormat>();
function fieldsIn(t: number, zone: string | undefined): Fields {
  if (!zone || zone === 'UTC' || zone === 'Etc/UTC') {
    const d = new Date(t);
    return { minute: d.getUTCMinutes(), hour: d.getUTCHours(), day: d.getUTCDate(), month: d.getUTCMonth() + 1, weekday: d.getUTCDay() };
  }
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short' });
    formatters.set(zone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(t))) p[part.type] = part.value;
  const weekdays: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
  return { minute: Number(p.minute), hour: Number(p.hour) % 24, day: Number(p.day), month: Number(p.month), weekday: weekdays[p.weekday] ?? 0 };
}

/** Whether Intl knows the IANA zone. */
export function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The offset of a zone at an instant as RFC 3339 writes it ("Z", "+09:00"). */
export function zoneOffset(t: number, zone: string | undefined): string {
  if (!zone || zone === 'UTC' || zone === 'Etc/UTC') return 'Z';
  const f = fieldsIn(t, zone);
  const d = new Date(t);
  const local = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
  // the zone's wall time as if it were UTC, on the nearest matching day
  let wall = Date.UTC(d.getUTCFullYear(), f.month - 1, f.day, f.hour, f.minute);
  if (wall - local > 2 * 86_400_000) wall = Date.UTC(d.getUTCFullYear() - 1, f.month - 1, f.day, f.hour, f.minute);
  if (local - wall > 2 * 86_400_000) wall = Date.UTC(d.getUTCFullYear() + 1, f.month - 1, f.day, f.hour, f.minute);
  const minutes = Math.round((wall - local) / 60_000);
  if (minutes === 0) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** RFC 3339 of an instant as read in a zone (Go's t.In(loc).Format(time.RFC3339)). */
export function rfc3339In(t: number, zone: string | undefined): string {
  const off = zoneOffset(t, zone);
  if (off === 'Z') return new Date(Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const sign = off[0] === '-' ? -1 : 1;
  const minutes = sign * (Number(off.slice(1, 3)) * 60 + Number(off.slice(4, 6)));
  return new Date(Math.floor(t / 1000) * 1000 + minutes * 60_000).toISOString().replace('.000Z', off);
}

/** Parses a schedule (cron.ParseStandard); throws CronParseError. */
export function parseSchedule(spec: string, zone?: string): CronSchedule {
  const text = spec.trim();
  if (text === '') throw new CronParseError('empty spec string');
  if (text.startsWith('@')) {
    if (text.startsWith('@every ')) {
      const ms = parseDuration(text.slice('@every '.length).trim());
      // robfig rounds the delay to whole seconds, at least one
      const delay = Math.max(1000, Math.floor(ms / 1000) * 1000);
      return { next: (after) => Math.floor(after / 1000) * 1000 + delay };
    }
    const d = DESCRIPTORS[text.toLowerCase()];
    if (!d) throw new CronParseError(`unrecognized descriptor: ${text}`);
    return parseSchedule(d, zone);
  }
  const parts = text.split(/\s+/);
  if (parts.length !== 5) throw new CronParseError(`expected exactly 5 fields, found ${parts.length}: [${parts.join(' ')}]`);
  const minute = parseField(parts[0], MINUTE);
  const hour = parseField(parts[1], HOUR);
  const dom = parseField(parts[2], DOM);
  const month = parseField(parts[3], MONTH);
  const dow = parseField(parts[4], DOW);
  const dayMatches = (f: Fields): boolean => {
    const d = dom.values.has(f.day);
    const w = dow.values.has(f.weekday);
    return dom.star || dow.star ? d && w : d || w;
  };
  return {
    next(after: number): number | undefined {
      // whole minutes after `after`; skip a day, an hour or a minute at a time as the fields allow
      let t = Math.floor(after / 60_000) * 60_000 + 60_000;
      const limit = after + 5 * 366 * 86_400_000;
      while (t <= limit) {
        const f = fieldsIn(t, zone);
        if (!month.values.has(f.month) || !dayMatches(f)) {
          t += ((23 - f.hour) * 60 + (60 - f.minute)) * 60_000;
          continue;
        }
        if (!hour.values.has(f.hour)) {
          t += (60 - f.minute) * 60_000;
          continue;
        }
        if (!minute.values.has(f.minute)) {
          t += 60_000;
          continue;
        }
        return t;
      }
      return undefined;
    },
  };
}
