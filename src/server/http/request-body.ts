import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonObject, type JsonObject } from '../util/json.js';
import { goDecodeExtent, goDecodeValue, goJsonKind } from './go-json.js';
import { jsonLimitsError } from './json-limits.js';
import { ApiError, badRequest } from './reply.js';

/** The service's default `max_request_size` (hashicorp/vault http/handler.go, DefaultMaxRequestSize). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Go's server discards at most this much of a body the handler left unread, to keep the
 * connection; with more (or an unknown length), it closes the connection after the answer.
 */
const MAX_UNREAD_BODY_DISCARDED = 256 * 1024;

/**
 * A request's body, read only when asked for: the pipeline asks after the token check, so a
 * request without a valid token never makes the server buffer anything. Until it is read, an
 * answer closes the connection when the body is large, of unknown length or awaited behind
 * `Expect: 100-continue` (the client would otherwise send it, or not, after the answer); Node
 * would read and discard it. `100 Continue` is sent only when the body is read, as Go does.
 */
export class RequestBody {
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    if (closesWhenUnread(req)) res.setHeader('Connection', 'close');
  }

  /** Reads a JSON object body; an empty body is `{}`. Over MAX_BODY_BYTES: 413, as the service answers. */
  async readJson(): Promise<JsonObject> {
    const { req, res } = this;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) throw new ApiError(413, [TOO_LARGE]);
    if (expectsContinue(req)) res.writeContinue();
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) throw new ApiError(413, [TOO_LARGE]);
        chunks.push(chunk);
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw badRequest('failed to read the request body'); // the client went away: not a server fault
    }
    if (!res.headersSent) res.removeHeader('Connection'); // read whole: the connection may stay
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    // http/json-limits.ts: the service's JSON limits, checked before the body is decoded (a 500).
    const limit = jsonLimitsError(bytes);
    if (limit !== undefined) throw new ApiError(500, [limit]);
    return parseJsonObject(bytes);
  }
}

const TOO_LARGE = 'http: request body too large';

function expectsContinue(req: IncomingMessage): boolean {
  return /^100-continue$/i.test(req.headers.expect ?? '');
}

function closesWhenUnread(req: IncomingMessage): boolean {
  if (expectsContinue(req)) return true;
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return Number(req.headers['content-length'] ?? 0) > MAX_UNREAD_BODY_DISCARDED;
}

/**
 * The body as one JSON object (http/go-json.ts reads it as Go's decoder does, errors and all);
 * empty, white space or `null` is no members. Vault answers a body it cannot decode with
 * `failed to parse JSON input: ` and the decoder's error (http/handler.go parseJSONRequest).
 */
function parseJsonObject(bytes: Buffer): JsonObject {
  const extent = goDecodeExtent(bytes);
  switch (extent.kind) {
    case 'empty':
      return {};
    case 'error':
      throw badRequest(`failed to parse JSON input: ${extent.message}`);
    case 'value':
      break;
  }
  // Go's scanner found one valid JSON value here; its numbers keep their text (json.Number).
  const parsed = goDecodeValue(bytes.subarray(extent.first, extent.end).toString('utf8'));
  if (parsed === null) return {};
  if (!isJsonObject(parsed)) throw badRequest(`failed to parse JSON input: json: cannot unmarshal ${goJsonKind(parsed)} into Go value of type map[string]interface {}`);
  return parsed;
}
