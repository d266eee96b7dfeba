/**
 * The one shape of a kind's field table, for kinds whose fields depend on a variant (a managed
 * key's backend type, a snapshot configuration's storage type). One table per kind drives its
 * rules, desired attrs, the normalisation of live answers, the request body and export, so they
 * cannot drift apart; one shape for every kind, so the tables read alike.
 */
import type { JsonValue } from '../core/json.js';

export interface FieldSpec<Variant extends string, Form extends string> {
  name: string;
  /** The variant the field belongs to; `common` fields belong to every variant. */
  variant: Variant | 'common';
  /** How a value is written in a manifest and read back from the server. */
  form: Form;
  /** Must be given (for its variant). */
  required?: true;
  /** The comparable value when the field is absent. */
  default?: JsonValue;
  /** A credential: a reference only, write-only (reads back "redacted"), never compared or shown. */
  secret?: true;
}

/** The fields a `variant` may hold: the common ones and its own, in table order. */
export function fieldsOfVariant<V extends string, F extends string>(specs: readonly FieldSpec<V, F>[], variant: V): FieldSpec<V, F>[] {
  return specs.filter((f) => f.variant === 'common' || f.variant === variant);
}

/** The compared fields among `specs` (every one but the credentials). */
export function comparedOf<S extends { secret?: true }>(specs: readonly S[]): S[] {
  return specs.filter((f) => !f.secret);
}

/** The credential fields among `specs`. */
export function secretOf<S extends { secret?: true }>(specs: readonly S[]): S[] {
  return specs.filter((f) => f.secret);
}
