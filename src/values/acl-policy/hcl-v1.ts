import { createRequire } from 'node:module';

/**
 * The service parses policies with hashicorp/hcl v1 (vault/policy.go: hcl.Parse). js-hcl-parser
 * is that same Go library compiled to JavaScript (GopherJS), so what it accepts and refuses, its
 * JSON form, `${...}` in keys and its error texts ("At 4:1: ...") are the service's. It is loaded
 * on the first parse only (about 100 ms, 1.6 MB): a run that parses no policy never pays for it.
 */
interface HclV1 {
  /** The decoded document as JSON text, or "unable to parse JSON: <hcl error>". */
  parse(text: string): string;
}

const FAILED = 'unable to parse JSON: ';

let loaded: HclV1 | undefined;

function hclV1(): HclV1 {
  loaded ??= createRequire(import.meta.url)('js-hcl-parser') as HclV1;
  return loaded;
}

/** hcl v1's decoding of a document into interface{}: objects as lists of maps, in written order. */
export type HclDecoded = { kind: 'decoded'; value: unknown } | { kind: 'syntax'; message: string };

export function decodeHclV1(text: string): HclDecoded {
  const out = hclV1().parse(text);
  if (out.startsWith(FAILED)) return { kind: 'syntax', message: out.slice(FAILED.length) };
  return { kind: 'decoded', value: JSON.parse(out) as unknown };
}
