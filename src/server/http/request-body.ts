import type { IncomingMessage } from 'node:http';
import { isJsonObject, type JsonObject } from '../util/json.js';
import { ApiError, badRequest } from './reply.js';

/** The service's own cap on request bodies. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Reads a JSON object body; an empty body is `{}`. */
export async function readJsonBody(req: IncomingMessage): Promise<JsonObject> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw new ApiError(413, ['http: request body too large']);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) throw new ApiError(413, ['http: request body too large']);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw badRequest('failed to read the request body'); // the client went away: not a server fault
  }
  if (size === 0) return {};
  const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the body, which may hold a secret (a PIN, a bindpass).
    throw badRequest('failed to parse JSON input: the body is not valid JSON');
  }
  if (!isJsonObject(parsed)) throw badRequest('failed to parse JSON input: the body must be a JSON object');
  return parsed;
}

/** `X-Vault-Token`, else `Authorization: Bearer <token>`. */
export function requestToken(req: IncomingMessage): string | undefined {
  const header = req.headers['x-vault-token'];
  if (typeof header === 'string' && header !== '') return header;
  const authorization = req.headers.authorization;
  if (authorization && /^bearer /i.test(authorization)) {
    const token = authorization.slice(7).trim();
    if (token !== '') return token;
  }
  return undefined;
}
