/**
 * Why `text` cannot be a relative API path (a namespace or a mount), or undefined when it can.
 * Such paths become address segments, so slashes at the ends or empty segments are mistakes.
 */
export function apiPathProblem(text: string): string | undefined {
  if (text === '') return 'must not be empty';
  if (text.startsWith('/') || text.endsWith('/')) return 'must not start or end with "/"';
  if (text.includes('//')) return 'must not contain empty segments ("//")';
  if (/\s/.test(text)) return 'must not contain spaces';
  if (text.split('/').some((s) => s === '.' || s === '..')) return 'must not contain "." or ".." segments';
  return undefined;
}
