import { BlockList, isIP } from 'node:net';
import { refused, value, type Read } from './read.js';

/**
 * CIDR blocks as the service reads a bound-CIDR field (tokenutil: parseutil.ParseAddrs, one
 * address or block per item): `10.0.0.0/8`, `fd00::/8`, or a bare address (a single host).
 */
export interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

export function readCidr(text: string): Read<Cidr> {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return refused('is not a CIDR block');
  const version = isIP(address);
  if (version === 0) return refused('is not an IPv4 or IPv6 address or CIDR block');
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !(/^[0-9]{1,3}$/.test(prefixText) && Number(prefixText) <= max)) {
    return refused(`has an invalid prefix length (0-${max})`);
  }
  return value({ address, prefix: prefixText === undefined ? max : Number(prefixText), family: version === 4 ? 'ipv4' : 'ipv6' });
}

/**
 * A block as the service reads it back (go-sockaddr's String of what ParseAddrs parsed): a
 * single host (/32, /128) as its bare address, IPv6 in its canonical form (RFC 5952: lower
 * case, zeros compressed), an IPv4-mapped IPv6 address as IPv4 (its prefix less 96, or /32
 * below 96), a prefix without leading zeros. Observed on the real server: `127.0.0.1/32` reads
 * back as `127.0.0.1`, `FD00:0::1/128` as `fd00::1`, `::ffff:1.2.3.4/120` as `1.2.3.4/24`.
 */
export function cidrText(cidr: Cidr): string {
  let { address, prefix } = cidr;
  let max = 32;
  if (cidr.family === 'ipv6') {
    address = new URL(`http://[${address}]/`).hostname.slice(1, -1);
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
    if (mapped) {
      const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
      address = [high >> 8, high & 255, low >> 8, low & 255].join('.');
      prefix = prefix >= 96 ? prefix - 96 : 32;
    } else {
      max = 128;
    }
  }
  return prefix === max ? address : `${address}/${prefix}`;
}

/** An IPv4-mapped IPv6 client address (dual-stack sockets) compares as plain IPv4. */
export function normaliseAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** True when the address lies in one of the CIDR blocks (an empty list allows every address). */
export function addressAllowed(cidrs: readonly string[], address: string): boolean {
  if (cidrs.length === 0) return true;
  const client = normaliseAddress(address);
  const family = isIP(client) === 6 ? 'ipv6' : 'ipv4';
  const blocks = new BlockList();
  for (const text of cidrs) {
    const cidr = readCidr(text);
    if (cidr.kind === 'value') blocks.addSubnet(cidr.value.address, cidr.value.prefix, cidr.value.family);
  }
  return blocks.check(client, family);
}
