import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formsOf, REDACTED, RedactionSet } from '../../src/core/redaction.js';
import { escapeHtml, escapeMarkdown } from '../../src/core/text-escape.js';

describe('RedactionSet', () => {
  it('#13.6: a secret with a quote or a backslash is redacted as the server echoes it, JSON-escaped (once or twice)', () => {
    const secret = 'pa"ss\\word-7f1e';
    const set = new RedactionSet([secret]);
    const echoed = JSON.stringify({ errors: [`bad body ${JSON.stringify({ bindpass: secret })}`] });
    const twice = JSON.stringify({ message: echoed });
    for (const text of [secret, echoed, twice, encodeURIComponent(secret)]) {
      const out = set.redact(text);
      expect(out).toContain(REDACTED);
      for (const form of formsOf(secret)) expect(out).not.toContain(form);
    }
  });

  it('#13.6: a one-character secret does not garble messages; where it stands alone it is still redacted', () => {
    const set = new RedactionSet(['p']);
    expect(set.redact('proxy refused the request')).toBe('proxy refused the request');
    expect(set.redact('bindpass: "p"')).toBe(`bindpass: "${REDACTED}"`);
    expect(set.redact('{"pin":"p"}')).toBe(`{"pin":"${REDACTED}"}`);
  });

  it('a short numeric PIN is redacted as a value, not inside longer numbers', () => {
    const set = new RedactionSet(['1234']);
    expect(set.redact('pin=1234&slot=0')).toBe(`pin=${REDACTED}&slot=0`);
    expect(set.redact('request 91234567 failed')).toBe('request 91234567 failed');
  });

  it('Go-escaped (<, >, &) and HTML/Markdown-escaped forms are redacted', () => {
    const secret = 'a<b>&c_d*e|f';
    const set = new RedactionSet([secret]);
    const goEcho = JSON.stringify(secret).slice(1, -1).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
    for (const text of [goEcho, escapeHtml(secret), escapeMarkdown(secret)]) expect(set.redact(`x ${text} y`)).toBe(`x ${REDACTED} y`);
  });

  it('the longest secret wins when one contains another', () => {
    const set = new RedactionSet(['token-abcdefgh', 'token-abcdefgh-and-more']);
    expect(set.redact('t=token-abcdefgh-and-more')).toBe(`t=${REDACTED}`);
  });

  it('blank secrets are ignored (they would garble everything and reveal nothing)', () => {
    expect(new RedactionSet(['', ' ', '\n']).redact('a b\nc')).toBe('a b\nc');
  });

  it('secrets added during a run are redacted from then on', () => {
    const set = new RedactionSet();
    expect(set.redact('op-token-0123456789')).toBe('op-token-0123456789');
    set.add('op-token-0123456789');
    expect(set.redact('op-token-0123456789')).toBe(REDACTED);
  });

  it('redactValue copies only what holds a secret and never changes its input', () => {
    const set = new RedactionSet(['secret-value-1']);
    const input = { a: 'cn=secret-value-1,dc=x', b: ['plain'], c: { d: 1 } };
    const out = set.redactValue(input);
    expect(out).toEqual({ a: `cn=${REDACTED},dc=x`, b: ['plain'], c: { d: 1 } });
    expect(input.a).toBe('cn=secret-value-1,dc=x');
    expect(out.b).toBe(input.b);
  });

  it('property: no form of any secret (8 characters or more) survives, whatever surrounds it', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 24 }).filter((s) => s.trim() !== ''), fc.string(), fc.string(), (secret, before, after) => {
        const set = new RedactionSet([secret]);
        for (const form of formsOf(secret)) {
          const out = set.redact(`${before}${form}${after}`);
          expect(out.includes(secret) && !`${before}${after}`.includes(secret) && !REDACTED.includes(secret)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});
