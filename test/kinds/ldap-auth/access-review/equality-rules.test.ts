import { describe, expect, it } from 'vitest';
import { rulesOf } from '../../../../src/kinds/ldap-auth/access-review/equality-rules.js';

describe('equality rules from the subschema (RFC 4512 4.1.2 AttributeTypeDescription)', () => {
  // As slapd answers them (core.schema, cosine.schema, nis.schema).
  const definitions = [
    "( 2.5.4.41 NAME 'name' DESC 'RFC4519: common supertype of name attributes' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15{32768} )",
    "( 2.5.4.3 NAME ( 'cn' 'commonName' ) DESC 'RFC4519: common name(s) for which the entity is known by' SUP name )",
    "( 0.9.2342.19200300.100.1.1 NAME ( 'uid' 'userid' ) DESC 'RFC4519: user identifier' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15{256} )",
    "( 1.3.6.1.1.1.1.12 NAME 'memberUid' EQUALITY caseExactIA5Match SUBSTR caseExactIA5SubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 )",
    "( 2.5.4.31 NAME 'member' DESC 'RFC2256: member of a group' SUP distinguishedName )",
    "( 2.5.4.49 NAME 'distinguishedName' DESC 'RFC4519: common supertype of DN attributes' EQUALITY distinguishedNameMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.12 )",
    "( 1.2.3.4 NAME 'tricky' DESC 'EQUALITY caseIgnoreMatch, says the text' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
    "( 1.2.3.5 NAME 'loop' SUP loop )",
  ];
  it('takes the SUP chain, names in any case and the OID, and no keyword inside a description', () => {
    expect(rulesOf(definitions, ['CN', 'userid', 'memberUid', 'member', '2.5.4.3', 'tricky', 'loop', 'unknown'])).toEqual(
      new Map([
        ['cn', 'caseignorematch'],
        ['userid', 'caseignorematch'],
        ['memberuid', 'caseexactia5match'],
        ['member', 'distinguishednamematch'],
        ['2.5.4.3', 'caseignorematch'],
        ['tricky', undefined],
        ['loop', undefined],
        ['unknown', undefined],
      ]),
    );
  });
});
