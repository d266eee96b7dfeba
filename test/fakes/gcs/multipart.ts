/** Parses a `multipart/related` upload body: a JSON metadata part, then the media part. */

export interface MultipartUpload {
  metadata: Record<string, unknown>;
  media: Buffer;
  mediaType: string | undefined;
}

export function parseMultipartRelated(contentType: string, body: Buffer): MultipartUpload {
  const m = /boundary="?([^";]+)"?/i.exec(contentType);
  if (!m) throw new Error('multipart upload without boundary');
  const delimiter = Buffer.from(`--${m[1]}`);
  const parts: Array<{ headers: Record<string, string>; body: Buffer }> = [];
  let pos = body.indexOf(delimiter);
  while (pos !== -1) {
    let start = pos + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break; // closing delimiter
    start = skipNewline(body, start);
    const next = body.indexOf(delimiter, start);
    if (next === -1) throw new Error('multipart body without closing delimiter');
    parts.push(parsePart(body.subarray(start, trimTrailingNewline(body, next))));
    pos = next;
  }
  if (parts.length !== 2) throw new Error(`multipart upload with ${parts.length} parts (expected 2)`);
  const [meta, media] = parts as [(typeof parts)[0], (typeof parts)[0]];
  return {
    metadata: meta.body.length > 0 ? (JSON.parse(meta.body.toString('utf8')) as Record<string, unknown>) : {},
    media: media.body,
    mediaType: media.headers['content-type'],
  };
}

function parsePart(raw: Buffer): { headers: Record<string, string>; body: Buffer } {
  const sep = raw.indexOf('\r\n\r\n');
  const headEnd = sep === -1 ? raw.indexOf('\n\n') : sep;
  if (headEnd === -1) return { headers: {}, body: raw };
  const headers: Record<string, string> = {};
  for (const line of raw.subarray(0, headEnd).toString('utf8').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body: raw.subarray(headEnd + (sep === -1 ? 2 : 4)) };
}

function skipNewline(buf: Buffer, at: number): number {
  if (buf[at] === 0x0d && buf[at + 1] === 0x0a) return at + 2;
  if (buf[at] === 0x0a) return at + 1;
  return at;
}

/** The end of a part's content: the line break before the next delimiter is not content. */
function trimTrailingNewline(buf: Buffer, end: number): number {
  if (buf[end - 2] === 0x0d && buf[end - 1] === 0x0a) return end - 2;
  if (buf[end - 1] === 0x0a) return end - 1;
  return end;
}
