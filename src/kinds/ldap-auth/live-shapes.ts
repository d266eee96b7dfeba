import { mapOf, record, type FieldShape, type RecordShape } from '../../core/json-shape.js';
import { assertNever } from '../../core/plan.js';
import { LDAP_FIELD_SPECS, type LdapFieldSpec } from './schema-fields.js';

/**
 * The shapes of the LDAP method's live answers, as the real service gives them
 * (sdk/helper/ldaputil/config.go PasswordlessMap, sdk/helper/tokenutil PopulateTokenData,
 * builtin/credential/ldap/path_users.go and path_groups.go): strings, booleans, durations as
 * whole seconds, policy and CIDR lists as lists. Built from the field table, so a field the
 * table knows is always checked.
 */
function shapeOf(spec: LdapFieldSpec): FieldShape {
  switch (spec.type) {
    case 'string':
    case 'enum':
      return 'text';
    case 'bool':
      return 'bool';
    case 'duration':
    case 'count':
    case 'integer':
      return 'integer';
    case 'list':
      return 'texts';
    case 'map':
      // Go's nil map is null.
      return { kind: 'or-null', shape: mapOf('text') };
    default:
      return assertNever(spec);
  }
}

/** `GET auth/<mount>/config`: every readable field of the table (write-only ones never come back). */
export const LDAP_CONFIG_SHAPE: RecordShape = record(
  Object.fromEntries(LDAP_FIELD_SPECS.filter((f) => !f.writeOnly).map((f) => [f.name, shapeOf(f)])),
);

/** `GET auth/<mount>/groups/<name>`. */
export const LDAP_GROUP_SHAPE: RecordShape = record({ policies: 'texts' });

/** `GET auth/<mount>/users/<name>`: the service joins groups with commas. */
export const LDAP_USER_SHAPE: RecordShape = record({ policies: 'texts', groups: 'text-or-texts' });

