/**
 * Parsers for the value forms the service accepts (and the server forms they read back as).
 * Pure functions; they accept both manifest forms and live forms.
 */

const NS_PER_SECOND = 1_000_000_000n;
const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // micro sign
  'μs': 1_000n, // Greek mu
  ms: 1_000_000n,
  s: NS_PER_SECOND,
  m: 60n * NS_PER_SECOND,
  h: 3600n * NS_PER_SECOND,
};
const COMPONENT = /([0-9]*)(?:\.([0-9]*))?(ns|us|µs|μs|ms|s|m|h)/y;
const MAX_NS = 2n ** 63n - 1n; // the server keeps durations as Go int64 nanoseconds

export type DurationParse = { seconds: number } | { problem: 'syntax' | 'fraction' };

/**
 * Whole seconds (`3600`, `"3600"`), Go duration strings (`1h30m`, `1.5h`, `90s`) and day counts
 * (`7d`), as the server's duration parser accepts them. A sub-second remainder (`1500ms`) is a
 * `fraction` problem: the server would silently truncate it.
 */
export function parseDurationDetailed(value: unknown): DurationParse {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? { seconds: value } : { problem: 'syntax' };
  }
  if (typeof value !== 'string') return { problem: 'syntax' };
  if (/^[0-9]+$/.test(value)) return secondsOf(BigInt(value) * NS_PER_SECOND);
  const days = /^([0-9]+)d$/.exec(value);
  if (days) return secondsOf(BigInt(days[1]!) * 86_400n * NS_PER_SECOND);
  let total = 0n;
  let at = 0;
  while (at < value.length) {
    COMPONENT.lastIndex = at;
    const m = COMPONENT.exec(value);
    if (!m) return { problem: 'syntax' };
    const [whole, intPart = '', fraction = '', unit = 's'] = m as unknown as [string, string?, string?, string?];
    if (intPart === '' && fraction === '') return { problem: 'syntax' };
    const unitNs = UNIT_NS[unit]!;
    const scale = 10n ** BigInt(fraction.length);
    // Like Go: the fractional part is truncated to whole nanoseconds.
    total += BigInt(intPart || '0') * unitNs + (BigInt(fraction || '0') * unitNs) / scale;
    at += whole.length;
  }
  return at === 0 ? { problem: 'syntax' } : secondsOf(total);
}

function secondsOf(ns: bigint): DurationParse {
  if (ns > MAX_NS) return { problem: 'syntax' };
  if (ns % NS_PER_SECOND !== 0n) return { problem: 'fraction' };
  return { seconds: Number(ns / NS_PER_SECOND) };
}

/** Integer seconds, or undefined for anything that is not a whole-second duration. */
export function parseDuration(value: string | number): number | undefined {
  const parsed = parseDurationDetailed(value);
  return 'seconds' in parsed ? parsed.seconds : undefined;
}

/** YAML booleans and the texts "true"/"false". */
export function parseBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/** A whole number ≥ 0, given as a number or as its digits. */
export function parseCount(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/**
 * The items of a list field: a string split at commas, an array item by item; undefined for
 * anything else. Array items are split at commas too: these lists travel as comma-joined
 * strings, so `["a,b"]` reaches the server as two names.
 */
export function listItems(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.split(',');
  if (!Array.isArray(value)) return undefined;
  const items: string[] = [];
  for (const v of value) {
    const text = String(v);
    if (text.includes(',')) items.push(...text.split(','));
    else items.push(text);
  }
  return items;
}

/** Sorted in code-unit order, as the server sorts (Go's sort.Strings), without repeats. Sorts `items` in place. */
function sortedUnique(items: string[]): string[] {
  if (items.length < 2) return items;
  // Without a comparator, sort compares strings by UTF-16 code units: the order wanted.
  items.sort();
  let n = 1;
  for (let i = 1; i < items.length; i++) if (items[i] !== items[n - 1]) items[n++] = items[i]!;
  items.length = n;
  return items;
}

/**
 * Group and user policy names as the server stores them (policyutil.ParsePolicies): trimmed,
 * lower-cased, empty ones dropped, unique, sorted; a list naming `root` is stored as just
 * `["root"]`, so it is compared so.
 */
export function normalisePolicies(list: unknown): string[] {
  const out: string[] = [];
  for (const item of listItems(list) ?? []) {
    const policy = item.trim().toLowerCase();
    if (policy !== '') out.push(policy);
  }
  return out.includes('root') ? ['root'] : sortedUnique(out);
}

/**
 * `token_policies` as the server stores it (tokenutil ParseTokenFields): each item trimmed and
 * nothing else: case, order and duplicates are kept. "" is no items.
 */
export function normaliseTokenPolicies(list: unknown): string[] {
  if (list === '' || list === null || list === undefined) return [];
  return (listItems(list) ?? []).map((item) => item.trim());
}

/** A user's group names as stored: trimmed, unique, sorted, lower-cased unless case sensitive. */
export function normaliseGroupList(value: unknown, caseSensitive: boolean): string[] {
  const out: string[] = [];
  for (const item of listItems(value) ?? []) {
    const trimmed = item.trim();
    if (trimmed !== '') out.push(caseSensitive ? trimmed : trimmed.toLowerCase());
  }
  return sortedUnique(out);
}

/** CIDR blocks: trimmed, empty ones dropped, order kept (the server keeps the given order). */
export function normaliseCidrs(value: unknown): string[] {
  const items = listItems(value) ?? [];
  return items.map((c) => c.trim()).filter((c) => c !== '');
}

/** A user or group name as the server keys it. */
export function canonicalName(name: string, caseSensitive: boolean): string {
  return caseSensitive ? name : name.toLowerCase();
}
