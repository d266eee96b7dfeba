/** What reading a value form gives: the value, or the service's refusal with its reason. */
export type Read<T> = { kind: 'value'; value: T } | { kind: 'refused'; reason: string };

export const value = <T>(v: T): Read<T> => ({ kind: 'value', value: v });
export const refused = <T>(reason: string): Read<T> => ({ kind: 'refused', reason });

/** The value, or undefined when refused. */
export function valueOf<T>(read: Read<T>): T | undefined {
  return read.kind === 'value' ? read.value : undefined;
}

/**
 * A JSON number as the service's request decoder keeps it: its literal text (Go's json.Number;
 * sdk/helper/jsonutil DecodeJSONFromReader decodes with UseNumber), which every field type then
 * parses itself (`1e2` is no duration and no int; `100.0` is a duration without a unit). The
 * emulator's body reader gives one for each number of a request body; JSON output writes it as
 * the number it stands for.
 */
export class JsonNumber {
  constructor(readonly text: string) {}

  toJSON(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }
}

/**
 * How a JSON number reaches the service's framework: as its text (json.Number). A number read
 * from a request body by the emulator keeps the literal the client sent; a JavaScript number
 * (a manifest's, or one of the emulator's own) stands in with its shortest round-trip text.
 * Undefined for anything that is not a number.
 */
export function numberLiteral(input: unknown): string | undefined {
  if (input instanceof JsonNumber) return input.text;
  return typeof input === 'number' ? String(input) : undefined;
}
