import { dirname, resolve } from 'node:path';
import type { Diagnostics } from '../core/diagnostics.js';
import { Secret } from '../core/secret.js';
import type { LoadedDocument, ValuePath } from './document.js';
import { fileReferenceRoot, readReferencedFile, type FileReferenceRoot } from './file-reference.js';
import { unescapeLiteral } from './literal-text.js';
import { atPath, formatValuePath, pathKey } from './value-path.js';

/** What a string value is, as far as references go. */
export type ReferenceForm =
  /** `text` is the value with each `$${` read as a literal `${`. */
  | { form: 'literal'; text: string }
  | { form: 'env'; name: string }
  | { form: 'file'; path: string }
  /** Contains `${` but is not one whole, well-formed reference. */
  | { form: 'malformed'; reason: string };

const WHOLE_REFERENCE = /^\$\{([A-Za-z]*):([^}]*)\}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function classifyString(text: string): ReferenceForm {
  const whole = WHOLE_REFERENCE.exec(text);
  if (!whole) {
    if (!text.includes('$')) return { form: 'literal', text };
    const literal = unescapeLiteral(text);
    return literal !== undefined
      ? { form: 'literal', text: literal }
      : { form: 'malformed', reason: 'not a whole-string reference: write the whole value as ${env:NAME} or ${file:path}, or a literal "${" as "$${"' };
  }
  const [, scheme, target] = whole as unknown as [string, string, string];
  if (scheme === 'env') {
    return ENV_NAME.test(target)
      ? { form: 'env', name: target }
      : { form: 'malformed', reason: 'invalid environment variable name in ${env:...}' };
  }
  if (scheme === 'file') {
    return target.trim() !== '' ? { form: 'file', path: target } : { form: 'malformed', reason: 'empty path in ${file:...}' };
  }
  return { form: 'malformed', reason: `unknown reference type "${scheme}" (use \${env:NAME} or \${file:path})` };
}

export interface ReferenceOptions {
  allowPlaintextSecrets: boolean;
  /** `--allow-files-outside-root`: `${file:}` may name any file (still regular, still size-capped). */
  allowFilesOutsideRoot?: boolean;
  env: NodeJS.ProcessEnv;
  /**
   * Every secret text resolved goes in here as it is read (the run's redaction set is built from
   * it), whether or not the document passes: nothing has to walk the documents for them again.
   */
  secretTexts?: Set<string>;
  /**
   * Every plain (not secret) text of the resolved value that holds `needle` goes in here with
   * its path, in the order of the value (certificates, which prepare checks: nothing has to walk
   * the document for them again).
   */
  textsHolding?: TextsHolding;
}

export interface TextsHolding {
  needle: string;
  found: Array<{ path: ValuePath; text: string }>;
}

/**
 * A copy of the document's value with every reference resolved. Values at `secretPaths` become
 * Secret objects and must be references unless plaintext secrets are allowed; other resolved
 * references become plain strings. Values at or below `unknownPaths` (fields the schema does not
 * know) are left as they are. Returns undefined when any problem was reported.
 * Messages name variables, files and fields, never a value.
 */
export async function resolveReferences(
  doc: LoadedDocument,
  secretPaths: readonly ValuePath[],
  opts: ReferenceOptions,
  diags: Diagnostics,
  unknownPaths: readonly ValuePath[] = [],
): Promise<unknown> {
  const resolved = await resolveReferencesPartly(doc, secretPaths, opts, diags, unknownPaths);
  return resolved.refused.length > 0 ? undefined : resolved.value;
}

/**
 * As resolveReferences, and when a reference fails, the rest of the value all the same (each
 * failed value left undefined) with the paths of those that failed: the rules about single
 * values still run on the rest (validate/salvage.ts).
 */
export async function resolveReferencesPartly(
  doc: LoadedDocument,
  secretPaths: readonly ValuePath[],
  opts: ReferenceOptions,
  diags: Diagnostics,
  unknownPaths: readonly ValuePath[] = [],
): Promise<{ value: unknown; refused: ValuePath[] }> {
  const secrets = new PathSet(secretPaths);
  // Fields the schema does not know are left as written: already an error, not worth a read.
  const unknown = unknownPaths.length > 0 ? new PathSet(unknownPaths) : undefined;
  const folder = dirname(doc.absoluteFile);
  // Looked up once per document, and only when it has a file reference.
  let referenceRoot: Promise<FileReferenceRoot | undefined> | undefined;
  const confinement = (): Promise<FileReferenceRoot | undefined> =>
    (referenceRoot ??= opts.allowFilesOutsideRoot ? Promise.resolve(undefined) : fileReferenceRoot(doc.absoluteFile, doc.givenDir ?? folder));
  const refused: ValuePath[] = [];
  const fail = (at: ValuePath, message: string, origin: 'manifest' | 'environment' = 'manifest'): undefined => {
    refused.push([...at]);
    if (origin === 'environment') diags.environmentError(message, doc.pos([...at]));
    else diags.error(message, doc.pos([...at]));
    return undefined;
  };
  // File references are read after the walk, all at once; the walk leaves a PendingRead there.
  const reads: Array<Promise<void>> = [];
  // The path of the value being walked: one stack, copied only when a message needs it.
  const path: Array<string | number> = [];

  // The texts holding the needle, in the value's order: a file's slot is taken when the walk
  // reaches it and filled once the file is read.
  const holding: Array<{ path: ValuePath; text: string } | undefined> = [];
  const needle = opts.textsHolding?.needle;
  /** `text`, the plain value at the walk's path, noted when it holds the needle. */
  const plain = (text: string): string => {
    if (needle !== undefined && text.includes(needle)) holding.push({ path: [...path], text });
    return text;
  };

  const secretOf = (text: string, origin: string): Secret => {
    if (text !== '') opts.secretTexts?.add(text);
    return new Secret(text, origin);
  };

  const resolveString = (text: string): unknown => {
    const isSecret = secrets.covers(path);
    // Nearly every value holds no `$`: plain text as it is, without classifying it.
    if (!isSecret && !text.includes('$')) return plain(text);
    const ref = classifyString(text);
    if (ref.form === 'literal' && !isSecret) return plain(ref.text);
    switch (ref.form) {
      case 'malformed':
        return fail(path, atPath(path, ref.reason));
      case 'literal':
        // An empty secret reveals nothing, so it needs no reference. Below a secret field (a list
        // where a string belongs) the schema's error says what is wrong: the text is a secret all
        // the same, never echoed, and not reported twice.
        if (opts.allowPlaintextSecrets || text === '' || !secrets.has(path)) return secretOf(ref.text, 'literal');
        return fail(
          path,
          `${formatValuePath(path)} is a secret and must be a \${env:...} or \${file:...} reference (or pass --allow-plaintext-secrets)`,
        );
      case 'env': {
        const value = opts.env[ref.name];
        // The manifest is right to ask; what is missing is around the run.
        if (value === undefined) return fail(path, atPath(path, `environment variable "${ref.name}" is not set`), 'environment');
        return isSecret ? secretOf(value, `env:${ref.name}`) : plain(value);
      }
      case 'file': {
        const at = [...path];
        const slot = needle === undefined ? -1 : holding.push(undefined) - 1;
        return new PendingRead(
          confinement().then(async (within) => {
            const content = await readReferencedFile(resolve(folder, ref.path), within);
            if (typeof content !== 'string') return fail(at, atPath(at, `file "${ref.path}" ${content.problem}`));
            if (isSecret) return secretOf(content, `file:${ref.path}`);
            if (needle !== undefined && content.includes(needle)) holding[slot] = { path: at, text: content };
            return content;
          }),
        );
      }
    }
  };

  /** Puts `value` at `into[key]`, or, for a file still being read, once it is read. */
  const place = (into: unknown[] | Record<string, unknown>, key: string | number, value: unknown): void => {
    const slots = into as Record<string | number, unknown>;
    if (value instanceof PendingRead) {
      reads.push(value.read.then((v) => setOwn(slots, key, v)));
    } else {
      setOwn(slots, key, value);
    }
  };

  // Synchronous, and copy-on-write: a subtree with nothing to resolve is shared as it is (the
  // document is never mutated), so a manifest of 10,000 users costs no copy of its 100,000
  // values; one promise per file reference, not one per value.
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return resolveString(value);
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        const item: unknown = value[i];
        const resolved = walk(item);
        path.pop();
        if (out === undefined && resolved !== item) out = value.slice(0, i);
        if (out !== undefined) place(out, i, resolved);
      }
      return out ?? value;
    }
    if (value !== null && typeof value === 'object') {
      const source = value as Record<string, unknown>;
      const keys = Object.keys(source);
      let out: Record<string, unknown> | undefined;
      for (let j = 0; j < keys.length; j++) {
        const k = keys[j]!;
        path.push(k);
        const resolved = unknown?.has(path) ? source[k] : walk(source[k]);
        path.pop();
        if (out === undefined && resolved !== source[k]) {
          out = {};
          for (let m = 0; m < j; m++) setOwn(out, keys[m]!, source[keys[m]!]);
        }
        if (out !== undefined) place(out, k, resolved);
      }
      return out ?? value;
    }
    return value;
  };

  const root: Record<string, unknown> = {};
  place(root, 'value', walk(doc.value));
  await Promise.all(reads);
  if (refused.length === 0) for (const h of holding) if (h !== undefined) opts.textsHolding?.found.push(h);
  return { value: root['value'], refused };
}

/** Sets an own property, `__proto__` included (a key in a manifest, never a prototype). */
function setOwn(into: Record<string | number, unknown>, key: string | number, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  else into[key] = value;
}

/** A file reference being read: its value once read (undefined when it could not be). */
class PendingRead {
  constructor(readonly read: Promise<unknown>) {}
}

/** Value paths (the secret ones of a document), looked up without building a key for every value. */
class PathSet {
  readonly #keysByLength = new Map<number, Set<string>>();
  /** The first segment of each path: most values lie under none (a user's policies), and are answered at once. */
  readonly #heads = new Set<string>();

  constructor(paths: readonly ValuePath[]) {
    for (const p of paths) {
      if (p.length > 0) this.#heads.add(String(p[0]));
      const keys = this.#keysByLength.get(p.length) ?? new Set<string>();
      keys.add(pathKey(p));
      this.#keysByLength.set(p.length, keys);
    }
  }

  has(path: ValuePath): boolean {
    const keys = this.#keysByLength.get(path.length);
    return keys !== undefined && keys.has(pathKey(path));
  }

  /**
   * Whether `path` is one of the paths or lies below one: a secret field written as a list or a
   * mapping (which its schema refuses) still holds secrets, and a document that fails its
   * schema is still read by the rules about single values (validate/salvage.ts), which may
   * quote the same reference read into another field.
   */
  covers(path: ValuePath): boolean {
    if (path.length === 0 || !this.#heads.has(String(path[0]))) return false;
    for (const [length, keys] of this.#keysByLength) {
      if (length <= path.length && keys.has(pathKey(length === path.length ? path : path.slice(0, length)))) return true;
    }
    return false;
  }
}
