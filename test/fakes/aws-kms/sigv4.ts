/** Verification of AWS Signature Version 4 on an incoming request (header form only). */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export type SigV4Result =
  | { ok: true; accessKeyId: string }
  | { ok: false; error: 'MissingAuthenticationTokenException' | 'IncompleteSignatureException' | 'UnrecognizedClientException' | 'InvalidSignatureException'; message: string };

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

export function verifySigV4(
  req: { method: string; path: string; headers: IncomingHttpHeaders; body: Buffer },
  secretFor: (accessKeyId: string) => string | undefined,
  expect: { region: string; service: string },
): SigV4Result {
  const header = req.headers.authorization;
  if (!header) return { ok: false, error: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const m = AUTH.exec(header);
  if (!m) return { ok: false, error: 'IncompleteSignatureException', message: 'Authorization header requires Credential, SignedHeaders and Signature.' };
  const [, accessKeyId, date, region, service, signedHeaders, signature] = m as unknown as string[];
  const secret = secretFor(accessKeyId!);
  if (secret === undefined) {
    return { ok: false, error: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  }
  if (region !== expect.region || service !== expect.service) {
    return { ok: false, error: 'InvalidSignatureException', message: `Credential should be scoped to a valid region and service (${expect.region}/${expect.service}).` };
  }
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const names = signedHeaders!.split(';');
  const canonicalHeaders = names.map((n) => `${n}:${headerValue(req.headers[n])}\n`).join('');
  const [path, query = ''] = req.path.split('?');
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? sha256(req.body));
  const canonical = [req.method, path, canonicalQuery(query), canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(Buffer.from(canonical))].join('\n');
  let key = hmac(`AWS4${secret}`, date!);
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
  const expected = createHmac('sha256', key).update(toSign).digest();
  const given = Buffer.from(signature!, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return {
      ok: false,
      error: 'InvalidSignatureException',
      message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
    };
  }
  return { ok: true, accessKeyId: accessKeyId! };
}

function headerValue(v: string | string[] | undefined): string {
  const s = Array.isArray(v) ? v.join(',') : (v ?? '');
  return s.trim().replace(/\s+/g, ' ');
}

function canonicalQuery(query: string): string {
  if (!query) return '';
  return query.split('&').sort().join('&');
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}
