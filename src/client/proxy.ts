import { BlockList, isIP } from 'node:net';

/** An HTTP proxy to reach a server through, from the environment. */
export interface ProxySettings {
  /** The proxy's URL (http:// or https://) without credentials: safe to show in messages. */
  url: string;
  /** `Proxy-Authorization` value when the proxy URL carries credentials: a secret, never shown. */
  authorization?: string;
}

/**
 * The proxy for requests to `target`, as curl and the service's own CLI read it: HTTPS_PROXY
 * (https_proxy) for an https target, HTTP_PROXY (http_proxy) for an http one, except for the
 * hosts NO_PROXY (no_proxy) lists, and never for loopback (the embedded server). NO_PROXY takes
 * `*`, host names (a domain covers its subdomains; a leading `.` or `*.` is allowed), IP
 * addresses, CIDR blocks, and any of those with `:port`. The proxy itself may be http:// or
 * https://; the tunnel to an https server is made with CONNECT and the TLS runs end to end.
 *
 * Throws an Error (naming the variable, never its credentials) for a proxy URL it cannot use.
 */
export function proxyFor(target: URL, env: NodeJS.ProcessEnv = process.env): ProxySettings | undefined {
  const variable = target.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  const value = envValue(env, variable);
  if (!value) return undefined;
  const host = bareHost(target.hostname);
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  if (isLoopback(host) || bypassed(host, port, envValue(env, 'NO_PROXY') ?? '')) return undefined;
  return parseProxy(value, variable);
}

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name] ?? env[name.toLowerCase()];
  return value?.trim() || undefined;
}

function parseProxy(value: string, variable: string): ProxySettings {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new Error(`${variable} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${variable}: only http:// and https:// proxies are supported (got ${url.protocol}//)`);
  }
  let user: string;
  let password: string;
  try {
    user = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw new Error(`${variable}: its user name or password holds a malformed %-escape`);
  }
  return {
    url: `${url.protocol}//${url.host}`,
    ...(user || password ? { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } : {}),
  };
}

/** A URL's host name as a socket wants it: IPv6 without its brackets; lower case. */
function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && (host === '::1' || /^::ffff:127\./.test(host));
}

/** Whether NO_PROXY lists `host` (at `port`). */
function bypassed(host: string, port: number, noProxy: string): boolean {
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const { name, entryPort } = splitPort(entry);
    if (entryPort !== undefined && entryPort !== port) continue;
    if (name.includes('/')) {
      if (inCidr(host, name)) return true;
      continue;
    }
    const domain = name.replace(/^\*?\./, '');
    if (host === domain || (isIP(host) === 0 && host.endsWith(`.${domain}`))) return true;
  }
  return false;
}

/** `host:port`, `[v6]:port`, or a bare name, address or CIDR block (a bare IPv6 keeps its colons). */
function splitPort(entry: string): { name: string; entryPort?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1]!, ...(bracketed[2] ? { entryPort: Number(bracketed[2]) } : {}) };
  const m = /^([^:]+):(\d+)$/.exec(entry);
  return m ? { name: m[1]!, entryPort: Number(m[2]) } : { name: entry };
}

function inCidr(host: string, cidr: string): boolean {
  const family = isIP(host);
  const [network, bits] = cidr.split('/');
  if (family === 0 || isIP(network!) !== family || !/^\d+$/.test(bits ?? '')) return false;
  const list = new BlockList();
  try {
    list.addSubnet(network!, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  } catch {
    return false;
  }
  return list.check(host, family === 4 ? 'ipv4' : 'ipv6');
}
