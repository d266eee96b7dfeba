/** Distinguished-name helpers (RFC 4514), just what login needs. */

export interface RdnAttribute {
  type: string;
  value: string;
}

/**
 * Escapes a value for use inside a DN (`uid=<value>,ou=people,...`): leading space or `#`,
 * trailing space and `" + , ; < > \` get a backslash; bytes outside printable ASCII become
 * `\xx` hex pairs.
 */
export function escapeDnValue(value: string): string {
  const bytes = Buffer.from(value, 'utf8');
  let out = '';
  bytes.forEach((b, i) => {
    const ch = String.fromCharCode(b);
    if ((i === 0 && (ch === ' ' || ch === '#')) || (i === bytes.length - 1 && ch === ' ')) out += `\\${ch}`;
    else if ('"+,;<>\\'.includes(ch)) out += `\\${ch}`;
    else if (b < 0x20 || b > 0x7e) out += `\\${b.toString(16).padStart(2, '0')}`;
    else out += ch;
  });
  return out;
}

/**
 * Parses a DN into RDNs (each a list of type/value pairs); undefined when it is not a DN. A
 * value's `\xx` escapes are bytes, decoded as UTF-8; the rest is read as the text it is, not
 * copied into bytes first (an access review parses tens of thousands of DNs).
 */
export function parseDn(text: string): RdnAttribute[][] | undefined {
  // The text as UTF-8 would carry it: a lone surrogate is U+FFFD.
  const dn = text.replace(LONE_SURROGATE, '\uFFFD');
  const rdns: RdnAttribute[][] = [];
  if (dn.trim() === '') return rdns;
  let rdn: RdnAttribute[] = [];
  let typeStart = 0;
  let type: string | undefined; // set once the `=` is read
  const value = new ValueText();
  for (let i = 0; i < dn.length; i++) {
    const ch = dn[i]!; // i < dn.length
    if (type === undefined) {
      if (ch === '=') type = dn.slice(typeStart, i).trim();
      else if (ch === ',' || ch === '+' || ch === ';' || ch === '\\') return undefined;
      continue;
    }
    if (ch === '\\') {
      const hex = dn.slice(i + 1, i + 3);
      if (HEX_PAIR.test(hex)) {
        value.byte(parseInt(hex, 16));
        i += 2;
      } else if (i + 1 < dn.length) {
        // The escaped character whole (a surrogate pair too): escaping one keeps it as it is.
        const next = String.fromCodePoint(dn.codePointAt(i + 1)!);
        value.text(next, false);
        i += next.length;
      } else {
        return undefined;
      }
    } else if (ch === ',' || ch === ';' || ch === '+') {
      if (type === '') return undefined;
      rdn.push({ type, value: value.take() });
      type = undefined;
      typeStart = i + 1;
      if (ch !== '+') {
        rdns.push(rdn);
        rdn = [];
      }
    } else if (ch === ' ' && value.empty()) {
      // leading spaces of a value are not part of it
    } else {
      value.text(ch, ch === ' ');
    }
  }
  if (type === undefined || type === '') return undefined;
  rdn.push({ type, value: value.take() });
  rdns.push(rdn);
  return rdns;
}

const HEX_PAIR = /^[0-9a-fA-F]{2}$/;
/** In a `u` regular expression a surrogate pair is one character: this matches only lone halves. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/gu;

/**
 * A DN value being read: text as written, and runs of escaped bytes decoded as UTF-8 where the
 * text resumes (a run's bytes can make one character only together; text never continues a
 * byte sequence, so decoding each run alone is decoding the whole value as bytes). Unescaped
 * spaces at the end are dropped.
 */
class ValueText {
  #done = '';
  #bytes: number[] = [];
  #trailingSpaces = 0;

  /** Nothing taken in since the last take (every text given is at least one character). */
  empty(): boolean {
    return this.#done === '' && this.#bytes.length === 0;
  }

  byte(b: number): void {
    this.#bytes.push(b);
    this.#trailingSpaces = 0;
  }

  text(t: string, isSpace: boolean): void {
    this.#flush();
    this.#done += t;
    this.#trailingSpaces = isSpace ? this.#trailingSpaces + 1 : 0;
  }

  take(): string {
    this.#flush();
    const out = this.#done.slice(0, this.#done.length - this.#trailingSpaces);
    this.#done = '';
    this.#trailingSpaces = 0;
    return out;
  }

  #flush(): void {
    if (this.#bytes.length === 0) return;
    this.#done += Buffer.from(this.#bytes).toString('utf8');
    this.#bytes = [];
  }
}

/**
 * The group name a groupattr value or a group entry's DN stands for (sdk/helper/ldaputil/
 * client.go getCN): the value of the first CN of a text that parses as a DN, otherwise the text
 * itself (already a name, or a DN without a CN). `pre111` is use_pre111_group_cn_behavior: the
 * attribute type must then be written `CN` exactly, so `cn=admins,ou=groups,...` stays whole;
 * otherwise `cn` in any case counts.
 */
export function groupNameOf(value: string, pre111: boolean): string {
  const rdns = parseDn(value);
  if (!rdns || rdns.length === 0) return value;
  const isCn = pre111 ? (type: string) => type === 'CN' : (type: string) => type.toLowerCase() === 'cn';
  for (const rdn of rdns) {
    for (const attr of rdn) if (isCn(attr.type)) return attr.value;
  }
  return value;
}
