/**
 * Opening an LDAP connection the way the service does: URLs tried in order, a URL that cannot
 * be connected (or has an unknown scheme) is skipped, ldaps:// is TLS from the start and
 * ldap:// upgrades with StartTLS when asked. We open the socket ourselves and hand it to
 * ldapts, because ldapts connects lazily on the first operation and so could not tell a dead
 * URL from a failed bind.
 */
import { X509Certificate } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import { Client } from 'ldapts';
import { describeError } from './errors.js';

type TlsVersionName = 'tls10' | 'tls11' | 'tls12' | 'tls13';

export interface LdapTlsSettings {
  starttls: boolean;
  insecureTls: boolean;
  /** PEM CA bundle; empty means the system roots. */
  caCert?: string;
  clientCert?: string;
  clientKey?: string;
  /** A TlsVersionName as the server stores it; any other text is refused when connecting. */
  minVersion: string;
  maxVersion: string;
}

export interface LdapTimeouts {
  /** Per URL: TCP connect, TLS handshake and StartTLS together. 0 = no limit. */
  connectMs: number;
  /** Per LDAP operation. 0 = no limit. */
  requestMs: number;
}

export interface LdapConnection {
  client: Client;
  url: string;
  /** Negotiated TLS protocol (e.g. `TLSv1.3`); undefined on a plain connection. */
  tlsProtocol?: string;
  /** What the server presented in the TLS handshake (read on demand); undefined on a plain connection. */
  presented(): PresentedChain | undefined;
  /** Unbinds and destroys the socket; never throws. */
  close(): Promise<void>;
}

/** The certificate chain a TLS server presented, and whether the TLS library trusts it. */
export interface PresentedChain {
  /** Leaf first, then its issuers as far as they are known (the configured CA included). */
  certificates: X509Certificate[];
  /** Verified against the configured CA (or the default roots), the host name aside. */
  trusted: boolean;
  /** Why not, in the TLS library's words (e.g. `self signed cert in chain`). */
  distrust?: string;
}

export interface ConnectAttempt {
  url: string;
  reason: string;
}

export class LdapConnectError extends Error {
  constructor(readonly attempts: ConnectAttempt[]) {
    super(
      attempts.length === 0
        ? 'no LDAP server URL configured'
        : `failed to connect to any LDAP server: ${attempts.map((a) => `${a.url}: ${a.reason}`).join('; ')}`,
    );
    this.name = 'LdapConnectError';
  }
}

const TLS_VERSIONS: Record<TlsVersionName, tls.SecureVersion> = {
  tls10: 'TLSv1',
  tls11: 'TLSv1.1',
  tls12: 'TLSv1.2',
  tls13: 'TLSv1.3',
};

/** `url` as configured: one URL or several separated by commas. */
export function splitUrls(urls: string[] | string): string[] {
  const list = Array.isArray(urls) ? urls : urls.split(',');
  return list.map((u) => u.trim()).filter((u) => u.length > 0);
}

/** Connects to the first URL that answers; throws LdapConnectError listing every failure. */
export async function connectFirst(
  urls: string[] | string,
  tlsSettings: LdapTlsSettings,
  timeouts: LdapTimeouts,
  signal?: AbortSignal,
): Promise<LdapConnection> {
  const attempts: ConnectAttempt[] = [];
  for (const url of splitUrls(urls)) {
    signal?.throwIfAborted();
    try {
      return await connectOne(url, tlsSettings, timeouts, signal);
    } catch (err) {
      attempts.push({ url, reason: describeError(err) });
    }
  }
  throw new LdapConnectError(attempts);
}

/**
 * Connects to one URL (with TLS / StartTLS as configured); throws on failure. `signal` aborts
 * the attempt (its socket destroyed at once, not at the connect timeout).
 */
export async function connectOne(
  url: string,
  tlsSettings: LdapTlsSettings,
  timeouts: LdapTimeouts,
  signal?: AbortSignal,
): Promise<LdapConnection> {
  signal?.throwIfAborted();
  const target = parseLdapUrl(url);
  // ldapts mutates the options it is given (StartTLS), so every use gets a fresh object.
  const tlsOptions = () => buildTlsOptions(target.host, tlsSettings);
  tlsOptions(); // validate the settings before any network traffic

  const { socket, ready } = openSocket(target, tlsOptions);
  let upgraded: tls.TLSSocket | undefined;
  // The client is handed the socket opened above, once. It would open another on its own when
  // that one closed (the directory dropped it, or lockstep closed it), unbound and, for StartTLS,
  // in clear text: a request after that fails instead.
  const once = <T>(): (() => T) => {
    let used = false;
    return () => {
      if (used) throw new Error('the connection to the LDAP server was closed');
      used = true;
      return socket as T;
    };
  };
  const plain = once<net.Socket>();
  const secure = once<tls.TLSSocket>();
  const client = new Client({
    url: `${target.scheme}://${target.hostForUrl}:${target.port}`,
    timeout: timeouts.requestMs,
    connectTimeout: timeouts.connectMs,
    createConnection: plain,
    // Called with one options object for a StartTLS upgrade, with (port, host, options) for ldaps.
    createSecureConnection: ((...args: unknown[]) =>
      args.length === 1 && typeof args[0] === 'object'
        ? (upgraded = tls.connect(args[0] as tls.ConnectionOptions))
        : secure()),
  });
  const destroy = () => {
    socket.destroy();
    upgraded?.destroy();
  };
  const connect = async (): Promise<void> => {
    await ready;
    if (target.scheme === 'ldap' && tlsSettings.starttls) await client.startTLS(tlsOptions());
  };
  // An abort destroys the socket and ends the wait: the client may not notice a socket gone
  // under a request it is waiting on (a StartTLS the server never answers).
  let onAbort = (): void => undefined;
  const aborted = signal
    ? new Promise<never>((_, reject) => {
        onAbort = () => {
          destroy();
          reject(new Error('connecting to the LDAP server was abandoned'));
        };
      })
    : undefined;
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const connected = withTimeout(connect(), timeouts.connectMs, destroy);
    await (aborted ? Promise.race([connected, aborted]) : connected);
    // Aborted as the connection completed: not handed out.
    signal?.throwIfAborted();
  } catch (err) {
    destroy();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  const tlsSocket = upgraded ?? (socket instanceof tls.TLSSocket ? socket : undefined);
  return {
    client,
    url,
    tlsProtocol: tlsSocket?.getProtocol() ?? undefined,
    presented: () => tlsSocket && presentedChain(tlsSocket),
    close: async () => {
      await client.unbind().catch(() => undefined);
      destroy();
    },
  };
}

interface LdapTarget {
  scheme: 'ldap' | 'ldaps';
  host: string;
  hostForUrl: string;
  port: number;
}

function parseLdapUrl(url: string): LdapTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('invalid LDAP URL');
  }
  const scheme = parsed.protocol.replace(/:$/, '').toLowerCase();
  if (scheme !== 'ldap' && scheme !== 'ldaps') throw new Error(`invalid LDAP scheme "${scheme}"`);
  const hostForUrl = parsed.hostname || '127.0.0.1';
  const host = hostForUrl.replace(/^\[(.*)\]$/, '$1');
  const port = parsed.port ? Number(parsed.port) : scheme === 'ldaps' ? 636 : 389;
  return { scheme, host, hostForUrl, port };
}

function buildTlsOptions(host: string, s: LdapTlsSettings): tls.ConnectionOptions {
  const minVersion = TLS_VERSIONS[s.minVersion as TlsVersionName];
  const maxVersion = TLS_VERSIONS[s.maxVersion as TlsVersionName];
  if (!minVersion) throw new Error(`invalid tls_min_version "${s.minVersion}"`);
  if (!maxVersion) throw new Error(`invalid tls_max_version "${s.maxVersion}"`);
  if (Boolean(s.clientCert) !== Boolean(s.clientKey)) {
    throw new Error('both client_tls_cert and client_tls_key must be set');
  }
  return {
    host,
    // SNI only takes host names, never IP addresses.
    servername: net.isIP(host) ? undefined : host,
    ca: s.caCert ? [s.caCert] : undefined,
    cert: s.clientCert || undefined,
    key: s.clientKey || undefined,
    minVersion,
    maxVersion,
    rejectUnauthorized: !s.insecureTls,
    // Unverified, the host name is not checked either (as the service's InsecureSkipVerify), so
    // `authorized` then says only whether the chain verifies.
    ...(s.insecureTls ? { checkServerIdentity: () => undefined } : {}),
  };
}

/** The chain of an established TLS connection, leaf first, each certificate once. */
function presentedChain(socket: tls.TLSSocket): PresentedChain {
  const certificates: X509Certificate[] = [];
  const seen = new Set<string>();
  // The last issuer of a complete chain is its own issuer: the fingerprints end the walk.
  for (let c: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true); c?.raw && !seen.has(c.fingerprint256); c = c.issuerCertificate) {
    seen.add(c.fingerprint256);
    certificates.push(new X509Certificate(c.raw));
  }
  const reason = socket.authorizationError as unknown;
  const distrust = socket.authorized ? undefined : typeof reason === 'string' ? reason.toLowerCase().replaceAll('_', ' ') : String(reason);
  return { certificates, trusted: socket.authorized, ...(distrust !== undefined ? { distrust } : {}) };
}

/** Opens the socket at once; `ready` settles when it is connected (ldaps: handshake done). */
function openSocket(
  target: LdapTarget,
  tlsOptions: () => tls.ConnectionOptions,
): { socket: net.Socket; ready: Promise<void> } {
  const socket =
    target.scheme === 'ldaps'
      ? tls.connect({ ...tlsOptions(), port: target.port })
      : net.connect(target.port, target.host);
  const ready = new Promise<void>((resolve, reject) => {
    socket.once(target.scheme === 'ldaps' ? 'secureConnect' : 'connect', () => resolve());
    socket.once('error', reject);
  });
  // ldapts installs its own error handler when it takes the socket; until then (and after a
  // failure) an error must not become an uncaught exception.
  socket.on('error', () => undefined);
  return { socket, ready };
}

async function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  if (!ms || ms <= 0) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new Error(`connection timed out after ${ms / 1000}s`));
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
