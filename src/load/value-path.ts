import type { ValuePath } from './document.js';

/** A stable map key for a value path (array indexes and their string forms give the same key). */
export function pathKey(path: ValuePath): string {
  return JSON.stringify(path.map(String));
}

/** `config.token_ttl`, `users.alice.groups[1]`: how a value's place is named in messages. */
export function formatValuePath(path: ValuePath): string {
  let out = '';
  for (const segment of path) {
    const name = segment === '' ? '""' : segment;
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? name : `.${name}`;
  }
  return out;
}

/** `config.token_ttl: message`, or just the message for the document itself. */
export function atPath(path: ValuePath, message: string): string {
  return path.length === 0 ? message : `${formatValuePath(path)}: ${message}`;
}
