import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseConfigValue } from '../../src/kinds/ldap-auth/config-form.js';
import { ldapFieldSpec, type LdapFieldSpec } from '../../src/kinds/ldap-auth/schema-fields.js';
import { normaliseValue as normaliseKeyValue } from '../../src/kinds/managed-key/attrs.js';
import { fieldSpec as keyFieldSpec } from '../../src/kinds/managed-key/fields.js';
import { normaliseValue as normaliseSnapshotValue } from '../../src/kinds/snapshot-policy/attrs.js';
import { snapshotFieldSpec } from '../../src/kinds/snapshot-policy/fields.js';
import { applyConfigWrite } from '../../src/server/ldap/config-write.js';
import { defaultLdapConfig } from '../../src/server/ldap/config.js';
import { toBool, toDurationSeconds, toInt } from '../../src/server/util/fields.js';

// #15.2: the reconciler's normalisation (what a plan compares) and the emulator's reading of the
// same value in a request (what the server stores) agree on every form: the same seconds, the
// same list, the same boolean, or both refuse it. Values are generated around the edges where
// the four earlier parsers disagreed ("1d12h", " 1h", ".5h", "0", "", fractions, signs, units).

const digits = fc.stringMatching(/^[0-9]{0,4}$/);
const unit = fc.constantFrom('ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h', 'd', 'x', '', 'H');
const component = fc.tuple(digits, fc.constantFrom('', '.'), digits, unit).map(([a, dot, b, u]) => `${a}${dot}${dot ? b : ''}${u}`);
const durationText = fc
  .tuple(fc.constantFrom('', '+', '-', ' '), fc.array(component, { minLength: 0, maxLength: 3 }), fc.constantFrom('', ' ', 'd'))
  .map(([sign, parts, tail]) => `${sign}${parts.join('')}${tail}`);
const boolText = fc.constantFrom('1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False', '', 'yes', 'on', 'tRUE', ' true', '2');
const integerText = fc.oneof(
  fc.integer({ min: -1000, max: 100_000 }).map(String),
  fc.constantFrom('', '0x1f', '0o17', '017', '08', '0b101', '1_000', '_1', '1.5', '1e3', ' 7', '7 ', '+3', '-0', '99999999999999999999'),
);
const scalar = fc.oneof(
  durationText,
  boolText,
  integerText,
  fc.integer({ min: -100, max: 100_000 }),
  fc.double({ noNaN: true, min: -10, max: 10 }),
  fc.boolean(),
  fc.constant(null),
);
const listValue = fc.oneof(
  fc.array(fc.constantFrom('a', ' b ', 'C', '', 'a,b', ' ', '\u3000x', '\ufeffy', 'p,q '), { maxLength: 4 }).map((items) => items.join(',')),
  fc.array(fc.constantFrom('a', ' b ', 'C', '', 'a,b', 'Dev'), { maxLength: 4 }),
);

type EmulatorRead = { kind: 'value'; value: unknown } | { kind: 'refused' };
function emulatorRead(read: () => unknown): EmulatorRead {
  try {
    return { kind: 'value', value: read() };
  } catch {
    return { kind: 'refused' };
  }
}

/** The reconciler's normalisation refused a value when it kept it as it was (not in the field's form). */
function expectAlike(normalised: unknown, emulator: EmulatorRead, inForm: (v: unknown) => boolean): void {
  if (emulator.kind === 'value' && inForm(emulator.value)) expect(normalised).toEqual(emulator.value);
  else expect(inForm(normalised), `the emulator refuses ${JSON.stringify(normalised)}`).toBe(false);
}

const ldapWrite = (field: string, v: unknown): EmulatorRead =>
  emulatorRead(() => (applyConfigWrite(defaultLdapConfig(), { [field]: v as never }).config as unknown as Record<string, unknown>)[field]);
const ldapSpec = (name: string): LdapFieldSpec => ldapFieldSpec(name)!;
const isSeconds = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isBool = (v: unknown) => typeof v === 'boolean';
const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

describe('#15.2: the reconciler and the emulator read every value form alike', () => {
  it('durations: LDAP token_ttl and a snapshot interval, as the emulator converts them', () => {
    fc.assert(
      fc.property(scalar, (v) => {
        const emulator = ldapWrite('token_ttl', v);
        expectAlike(normaliseConfigValue(ldapSpec('token_ttl'), v), emulator, isSeconds);
        expectAlike(normaliseSnapshotValue(snapshotFieldSpec('interval')!, v), emulatorRead(() => toDurationSeconds('interval', v)), isSeconds);
      }),
      { numRuns: 3000 },
    );
  });

  it('the forms the four earlier parsers disagreed on', () => {
    for (const v of ['1d12h', ' 1h', '.5h', '0', '', '1500ms', '-500ms', '+90', '7d']) {
      expectAlike(normaliseConfigValue(ldapSpec('token_ttl'), v), ldapWrite('token_ttl', v), isSeconds);
    }
    expect(normaliseConfigValue(ldapSpec('token_ttl'), '.5h')).toBe(1800);
    expect(ldapWrite('token_ttl', '1d12h').kind).toBe('refused');
    expect(normaliseConfigValue(ldapSpec('token_ttl'), '1d12h')).toBe('1d12h');
  });

  it('booleans: LDAP starttls, a managed key flag', () => {
    fc.assert(
      fc.property(scalar, (v) => {
        expectAlike(normaliseConfigValue(ldapSpec('starttls'), v), ldapWrite('starttls', v), isBool);
        expectAlike(normaliseKeyValue(keyFieldSpec('pkcs11', 'any_mount')!, v), emulatorRead(() => toBool('any_mount', v)), isBool);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts: LDAP token_num_uses, snapshot retain, a managed key size', () => {
    fc.assert(
      fc.property(scalar, (v) => {
        expectAlike(normaliseConfigValue(ldapSpec('token_num_uses'), v), ldapWrite('token_num_uses', v), isCount);
        expectAlike(normaliseSnapshotValue(snapshotFieldSpec('retain')!, v), emulatorRead(() => toInt('retain', v)), isCount);
        expectAlike(normaliseKeyValue(keyFieldSpec('pkcs11', 'key_bits')!, v), emulatorRead(() => toInt('key_bits', v)), isCount);
      }),
      { numRuns: 2000 },
    );
  });

  it('comma lists: token_policies as sent (a list comma-joined) and as written', () => {
    fc.assert(
      fc.property(listValue, (v) => {
        const sent = Array.isArray(v) ? v.join(',') : v;
        const emulator = ldapWrite('token_policies', sent);
        expect(emulator.kind).toBe('value');
        expect(normaliseConfigValue(ldapSpec('token_policies'), v)).toEqual(emulator.kind === 'value' ? emulator.value : undefined);
      }),
      { numRuns: 1000 },
    );
  });
});
