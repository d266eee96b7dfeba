import type { IncomingMessage } from 'node:http';

/**
 * The request headers the service reads, each read as Go's net/http reads it: `Header.Get`
 * answers the first value of a repeated header (net/http/header.go, textproto.MIMEHeader.Get).
 * Node joins most repeated headers with ", " (and drops repeats of a few, Authorization and
 * Content-Type among them), so every header the emulator decides on is read here, from the
 * values as they came (`headersDistinct`), never from `req.headers`.
 */

/** The first value of a header, as Go's Header.Get; undefined when the request has none. */
export function firstHeader(req: IncomingMessage, name: string): string | undefined {
  return req.headersDistinct[name.toLowerCase()]?.[0];
}

/** Every value of a header, in the order they came (Go's `r.Header[name]`). */
function allHeaders(req: IncomingMessage, name: string): readonly string[] {
  return req.headersDistinct[name.toLowerCase()] ?? [];
}

const TOKEN_HEADER = 'x-vault-token';
export const NAMESPACE_HEADER = 'x-vault-namespace';

/**
 * The client token as hashicorp/vault http/handler.go getTokenFromReq finds it: the first
 * `X-Vault-Token` when it is not empty; else the first `Authorization` value that starts with
 * `Bearer ` (exactly so: a value in another case is left to plugins), trimmed.
 */
export function requestToken(req: IncomingMessage): string | undefined {
  const header = firstHeader(req, TOKEN_HEADER);
  if (header !== undefined && header !== '') return header;
  for (const value of allHeaders(req, 'authorization')) {
    if (!value.startsWith('Bearer ')) continue;
    const token = value.slice('Bearer '.length).trim();
    return token === '' ? undefined : token;
  }
  return undefined;
}
