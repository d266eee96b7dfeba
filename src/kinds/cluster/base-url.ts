/**
 * The base URL of a cluster in the one form ClusterTarget holds: http(s), no trailing slash,
 * ending in `/v1` (added when missing, so both `https://h:8200` and `https://h:8200/v1/` work).
 */
export function normaliseBaseUrl(text: string): string | { problem: string } {
  const example = ' (e.g. https://vault.example.com:8200/v1)';
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { problem: `must be an http:// or https:// URL${example}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `must be an http:// or https:// URL${example}` };
  if (url.username !== '' || url.password !== '') return { problem: 'must not contain credentials (use token)' };
  if (url.search !== '' || url.hash !== '') return { problem: 'must not have a query or fragment' };
  const path = url.pathname.replace(/\/+$/, '');
  const withVersion = path.endsWith('/v1') ? path : `${path}/v1`;
  return `${url.protocol}//${url.host}${withVersion}`;
}
