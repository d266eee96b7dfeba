/** What reading a value form gives: the value, or the service's refusal with its reason. */
export type Read<T> = { kind: 'value'; value: T } | { kind: 'refused'; reason: string };

export const value = <T>(v: T): Read<T> => ({ kind: 'value', value: v });
export const refused = <T>(reason: string): Read<T> => ({ kind: 'refused', reason });

/** The value, or undefined when refused. */
export function valueOf<T>(read: Read<T>): T | undefined {
  return read.kind === 'value' ? read.value : undefined;
}

/**
 * How a JSON number reaches the service's framework: the request decoder keeps numbers as their
 * text (json.Number), and every field type then parses that text. JavaScript's shortest
 * round-trip text stands in for the text a client sent.
 */
export function numberText(n: number): string {
  return String(n);
}
