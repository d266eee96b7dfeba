/** How a cluster listening on `host:port` is reached: `http://127.0.0.1:8200` (wildcards as loopback). */
export function apiOrigin(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
