import { format, inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { collectSecretTexts, isSecret, REDACTED, revealDeep, scrub, Secret } from '../../src/core/secret.js';

const CANARY = 'canary-secret-5e1f07';
const secret = (): Secret => new Secret(CANARY, 'env:LDAP_BINDPASS');

describe('Secret renders as "(sensitive)" everywhere', () => {
  it('in JSON, String(), template literals and concatenation', () => {
    const s = secret();
    expect(JSON.stringify(s)).toBe('"(sensitive)"');
    expect(JSON.stringify({ bindpass: s, nested: [s] })).toBe('{"bindpass":"(sensitive)","nested":["(sensitive)"]}');
    expect(String(s)).toBe(REDACTED);
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- what this test proves: a Secret in a template is redacted
    expect(`${s}`).toBe(REDACTED);
    // eslint-disable-next-line @typescript-eslint/restrict-plus-operands -- and so is one joined with +
    expect('x' + s).toBe('x(sensitive)');
  });

  it('in util.inspect and util.format (what console.log uses), nested or not', () => {
    const s = secret();
    for (const text of [inspect(s), inspect({ a: { b: [s] } }, { depth: 10 }), format('%s %o %O %j', s, s, { s }, { s })]) {
      expect(text).not.toContain(CANARY);
      expect(text).toContain(REDACTED);
    }
  });

  it('shows its origin, which is safe', () => {
    expect(secret().origin).toBe('env:LDAP_BINDPASS');
    expect(secret().reveal()).toBe(CANARY);
    expect(isSecret(secret())).toBe(true);
    expect(isSecret(CANARY)).toBe(false);
  });
});

describe('revealDeep', () => {
  it('copies the value with every Secret replaced by its text', () => {
    const input = { bindpass: secret(), url: 'ldap://x', list: [secret(), 1, null], deep: { pin: secret(), n: 2, b: false } };
    expect(revealDeep(input)).toEqual({ bindpass: CANARY, url: 'ldap://x', list: [CANARY, 1, null], deep: { pin: CANARY, n: 2, b: false } });
  });

  it('leaves its input untouched', () => {
    const inner = { pin: secret() };
    const input = { inner, list: [secret()] };
    const out = revealDeep(input) as { inner: unknown; list: unknown[] };
    expect(out.inner).not.toBe(inner);
    expect(isSecret(input.inner.pin)).toBe(true);
    expect(isSecret(input.list[0])).toBe(true);
  });

  it('copies only what leads to a Secret: the rest is shared, and a value without one comes back as is', () => {
    const plain = { policies: 'a,b', groups: ['g1'] };
    expect(revealDeep(plain)).toBe(plain);
    const input = { plain, sealed: { pin: secret() }, list: [plain, secret()] };
    const out = revealDeep(input) as typeof input;
    expect(out).not.toBe(input);
    expect(out.plain).toBe(plain);
    expect(out.sealed).toEqual({ pin: CANARY });
    expect(out.list).toEqual([plain, CANARY]);
    expect(out.list[0]).toBe(plain);
  });

  it('passes primitives through', () => {
    expect(revealDeep('x')).toBe('x');
    expect(revealDeep(3)).toBe(3);
    expect(revealDeep(null)).toBe(null);
    expect(revealDeep(secret())).toBe(CANARY);
  });
});

describe('collectSecretTexts and scrub', () => {
  it('collects every non-empty secret text, at any depth', () => {
    const texts = collectSecretTexts({ a: secret(), b: [new Secret('other', 'file:x')], c: { d: new Secret('', 'env:EMPTY') }, e: 'plain' });
    expect([...texts].sort()).toEqual([CANARY, 'other'].sort());
  });

  it('replaces every occurrence of every secret', () => {
    expect(scrub(`bind failed for ${CANARY}; retried ${CANARY} with other`, [CANARY, 'other'])).toBe(
      'bind failed for (sensitive); retried (sensitive) with (sensitive)',
    );
  });

  it('ignores empty secrets (which would otherwise match everywhere)', () => {
    expect(scrub('nothing to hide', [''])).toBe('nothing to hide');
  });

  // BUG (src/core/secret.ts, scrub): secrets are replaced in the order given. When one secret
  // is a prefix (or any substring) of another and comes first, the longer one is only partly
  // replaced and its remainder is printed: "(sensitive)-tail-9f". Replacing longer texts first
  // fixes it.
  it('hides a secret that contains another secret, whatever the order given', () => {
    const short = 'shared-prefix';
    const long = 'shared-prefix-tail-9f';
    const out = scrub(`error: ${long}`, [short, long]);
    expect(out).toBe('error: (sensitive)');
  });
});
