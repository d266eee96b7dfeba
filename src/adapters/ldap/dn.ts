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

/** Parses a DN into RDNs (each a list of type/value pairs); undefined when it is not a DN. */
export function parseDn(dn: string): RdnAttribute[][] | undefined {
  const rdns: RdnAttribute[][] = [];
  if (dn.trim() === '') return rdns;
  let rdn: RdnAttribute[] = [];
  let type = '';
  let value: number[] = [];
  let inValue = false;
  let trailingSpaces = 0; // unescaped spaces at the end of the value, dropped at the end
  const finishAttribute = (): boolean => {
    const t = type.trim();
    if (!inValue || t === '') return false;
    const bytes = value.slice(0, value.length - trailingSpaces);
    rdn.push({ type: t, value: Buffer.from(bytes).toString('utf8') });
    type = '';
    value = [];
    inValue = false;
    trailingSpaces = 0;
    return true;
  };
  const bytes = Buffer.from(dn, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!; // i < bytes.length
    const ch = String.fromCharCode(byte);
    if (!inValue) {
      if (ch === '=') inValue = true;
      else if (',+;\\'.includes(ch)) return undefined;
      else type += ch;
      continue;
    }
    if (ch === '\\') {
      const hex = bytes.subarray(i + 1, i + 3).toString('latin1');
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        value.push(parseInt(hex, 16));
        i += 2;
      } else if (i + 1 < bytes.length) {
        value.push(bytes[++i]!); // i + 1 < bytes.length
      } else {
        return undefined;
      }
      trailingSpaces = 0;
    } else if (ch === ',' || ch === ';' || ch === '+') {
      if (!finishAttribute()) return undefined;
      if (ch !== '+') {
        rdns.push(rdn);
        rdn = [];
      }
    } else if (ch === ' ' && value.length === 0) {
      // leading spaces of a value are not part of it
    } else {
      value.push(byte);
      trailingSpaces = ch === ' ' ? trailingSpaces + 1 : 0;
    }
  }
  if (!finishAttribute()) return undefined;
  rdns.push(rdn);
  return rdns;
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
