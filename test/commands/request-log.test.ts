import { describe, expect, it } from 'vitest';
import type { ExchangeReport } from '../../src/client/types.js';
import { requestLogLine } from '../../src/commands/request-log.js';

const report = (over: Partial<ExchangeReport> = {}): ExchangeReport => ({
  cluster: 'east',
  method: 'GET',
  path: 'team-a/auth/ldap/config',
  query: undefined,
  attempt: 1,
  elapsedMs: 12.4,
  outcome: { kind: 'answer', status: 200 },
  ...over,
});

describe('a line of the request log', () => {
  it('cluster, method, path with its namespace and query, status and time; the attempt from the second on', () => {
    expect(requestLogLine(report())).toBe('debug: east: GET team-a/auth/ldap/config -> 200 in 12ms');
    expect(requestLogLine(report({ method: 'LIST', path: 'auth/ldap/users', query: { help: '1', 'a b': 'c&d' } }))).toBe(
      'debug: east: LIST auth/ldap/users?help=1&a%20b=c%26d -> 200 in 12ms',
    );
    expect(requestLogLine(report({ query: {} }))).toBe('debug: east: GET team-a/auth/ldap/config -> 200 in 12ms');
    expect(requestLogLine(report({ attempt: 3, outcome: { kind: 'answer', status: 503 } }))).toBe('debug: east: GET team-a/auth/ldap/config -> 503 in 12ms (attempt 3)');
    expect(requestLogLine(report({ outcome: { kind: 'no-answer', code: 'ECONNREFUSED' } }))).toBe('debug: east: GET team-a/auth/ldap/config -> no answer (ECONNREFUSED) in 12ms');
  });

  it("a name from a server or a manifest is one line of visible characters: it can start no line of its own", () => {
    const line = requestLogLine(report({ path: 'auth/ldap/users/x\n::error::forged\u001b[31m', cluster: 'e\rst' }));
    expect(line).toBe('debug: e\\rst: GET auth/ldap/users/x\\n::error::forged\\u001b[31m -> 200 in 12ms');
    for (const control of ['\n', '\r', '\u001b']) expect(line).not.toContain(control);
  });
});
