import { describe, expect, it } from 'vitest';
import { cidrText, readCidr } from '../../src/values/index.js';

// The form in which the service reads a bound-CIDR block back: go-sockaddr's String of what
// parseutil.ParseAddrs parsed (hashicorp/go-secure-stdlib parseutil/parseutil.go ParseAddrs;
// hashicorp/go-sockaddr ipv4addr.go / ipv6addr.go String). Each row was answered by the real
// server too (OpenBao 2.6.2, `token_bound_cidrs` of auth/ldap/config).
const READ_BACK: [string, string][] = [
  ['127.0.0.1/32', '127.0.0.1'],
  ['10.0.0.0/8', '10.0.0.0/8'],
  ['10.1.2.3/8', '10.1.2.3/8'],
  ['1.2.3.4/08', '1.2.3.4/8'],
  [' 1.2.3.4 ', '1.2.3.4'],
  ['0.0.0.0/0', '0.0.0.0/0'],
  ['FD00:0::1/128', 'fd00::1'],
  ['fd00:0::0/8', 'fd00::/8'],
  ['2001:db8:0:0:1:0:0:1/64', '2001:db8::1:0:0:1/64'],
  ['::/0', '::/0'],
  ['::ffff:1.2.3.4', '1.2.3.4'],
  ['::FFFF:102:304', '1.2.3.4'],
  ['::ffff:1.2.3.4/120', '1.2.3.4/24'],
  ['::ffff:0:0/96', '0.0.0.0/0'],
  ['::ffff:1.2.3.4/80', '1.2.3.4'],
];

describe('cidrText', () => {
  it.each(READ_BACK)('%j reads back as %j', (given, stored) => {
    const cidr = readCidr(given);
    expect(cidr.kind).toBe('value');
    if (cidr.kind === 'value') expect(cidrText(cidr.value)).toBe(stored);
  });
});
