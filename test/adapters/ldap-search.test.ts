import { Attribute, BerReader, BerWriter, MessageResponseStatus, SearchEntry, SearchRequest, type Client } from 'ldapts';
import { describe, expect, it } from 'vitest';
import { searchUpToLimit } from '../../src/adapters/ldap/index.js';

/** An attribute as ldapts reads it off the wire: values it could decode as UTF-8 as text, the bytes kept. */
function received(type: string, values: string[] | Buffer[]): Attribute {
  const writer = new BerWriter();
  new Attribute({ type, values }).write(writer);
  const read = new Attribute();
  read.parse(new BerReader(writer.buffer));
  return read;
}

/** A client whose one search answers `entries` (searchUpToLimit sends through ldapts's private _send). */
function answering(entries: SearchEntry[]): Client {
  const fake = {
    _ensureConnected: async () => {},
    _nextMessageId: () => 1,
    _send: async () => ({ status: MessageResponseStatus.Success, searchEntries: entries, controls: [] }),
  };
  return fake as unknown as Client;
}

describe('searchUpToLimit: entries read from the messages as searchEntries gives them', () => {
  it('each attribute under the name the server sent, values as text; a value that is not UTF-8 makes every value of its attribute text from bytes', async () => {
    const entry = new SearchEntry({
      messageId: 1,
      name: 'cn=crew,ou=groups,dc=x',
      attributes: [received('cn', ['crew', 'Crew']), received('member', ['uid=fry,dc=x']), received('description', [Buffer.from('ok'), Buffer.from([0x61, 0xff])])],
    });
    const { entries, complete } = await searchUpToLimit(answering([entry]), { base: 'ou=groups,dc=x', attributes: ['cn', 'member', 'owner'] });
    expect(complete).toBe(true);
    // An attribute asked for and absent has no values, as searchEntries' empty list reads.
    expect(entries).toEqual([{ dn: 'cn=crew,ou=groups,dc=x', attributes: { cn: ['crew', 'Crew'], member: ['uid=fry,dc=x'], description: ['ok', 'a\uFFFD'] } }]);
  });
});

describe('searchUpToLimit: a size limit asked for', () => {
  it('goes in the request unpaged, and a search it stops answers the entries sent, in one request', async () => {
    const sent: SearchRequest[] = [];
    const entry = new SearchEntry({ messageId: 1, name: 'uid=fry,dc=x', attributes: [received('uid', ['fry'])] });
    const fake = {
      _ensureConnected: async () => {},
      _nextMessageId: () => sent.length + 1,
      _send: async (request: SearchRequest) => {
        sent.push(request);
        return { status: MessageResponseStatus.SizeLimitExceeded, searchEntries: [entry], controls: [] };
      },
    };
    const { entries, complete } = await searchUpToLimit(fake as unknown as Client, { base: 'dc=x', attributes: ['uid'], sizeLimit: 1 });
    expect(complete).toBe(false);
    expect(entries.map((e) => e.dn)).toEqual(['uid=fry,dc=x']);
    expect(sent.map((r) => [r.sizeLimit, r.controls?.length ?? 0])).toEqual([[1, 0]]);
  });
});
