/**
 * A count with thousands separators, `11,004`, as `toLocaleString('en-US')` writes it, without
 * Intl: the first Intl call loads ICU's number formatting, about 35 ms of a run's CPU, for a
 * summary line.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Math.abs(n) < 1000) return String(n);
  const digits = String(Math.abs(n));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = `${digits.slice(Math.max(0, end - 3), end)}${out === '' ? '' : ','}${out}`;
  return n < 0 ? `-${out}` : out;
}
