import { isSecret, scrub } from '../../core/secret.js';
import type { DesiredResource } from '../../core/resource.js';

const SECRET_MEMBER = /key|secret|token|password/i;
/** Shorter lines of a PEM body say nothing (and would redact ordinary words). */
const MIN_LINE = 16;

/**
 * Texts inside a secret that a server could echo on their own: a credentials file's content is
 * one Secret, but its private key (or one line of it) quoted alone would not match it whole.
 * For each Secret holding a JSON object: the string members named like a secret, and each
 * long line of them.
 */
export function innerSecretTexts(desired: DesiredResource | undefined): string[] {
  const out: string[] = [];
  for (const value of Object.values(desired?.writeOnly ?? {})) {
    if (!isSecret(value)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value.reveal());
    } catch {
      continue;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) continue;
    for (const [member, text] of Object.entries(parsed)) {
      if (typeof text !== 'string' || !SECRET_MEMBER.test(member) || text === '') continue;
      out.push(text, ...text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length >= MIN_LINE && !l.startsWith('-----')));
    }
  }
  return out;
}

/** Runs `fn`; an error it throws comes out as a plain Error whose message holds none of `texts`. */
export async function scrubbingErrors<T>(texts: readonly string[], fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (texts.length === 0) throw err;
    const message = err instanceof Error ? err.message : String(err);
    // Longest first, so a text holding another is replaced whole.
    throw new Error(scrub(message, [...texts].sort((a, b) => b.length - a.length)));
  }
}
