import { BlockList, isIP } from 'node:net';

/** An IPv4-mapped IPv6 client address (dual-stack sockets) compares as plain IPv4. */
export function normaliseAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** Parses `10.0.0.0/8`, `fd00::/8` or a bare address (a single host); undefined when invalid. */
export function parseCidr(text: string): Cidr | undefined {
  const [address, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined || !address) return undefined;
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  let prefix = max;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText)) return undefined;
    prefix = Number(prefixText);
    if (prefix > max) return undefined;
  }
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** True when the address lies in one of the CIDR blocks (an empty list allows every address). */
export function addressAllowed(cidrs: readonly string[], address: string): boolean {
  if (cidrs.length === 0) return true;
  const client = normaliseAddress(address);
  const family = isIP(client) === 6 ? 'ipv6' : 'ipv4';
  const blocks = new BlockList();
  for (const text of cidrs) {
    const cidr = parseCidr(text);
    if (cidr) blocks.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  return blocks.check(client, family);
}
