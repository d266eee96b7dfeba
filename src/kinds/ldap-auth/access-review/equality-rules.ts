/**
 * The equality matching rules of attributes, as the directory's subschema (RFC 4512 4.2,
 * `attributeTypes`) defines them, an attribute without its own rule taking its SUP's. The
 * review reads only the users a change of mappings can reach when it knows how the names it
 * searches for are compared (affected-users.ts).
 */
import type { Client } from 'ldapts';
import { searchEntries } from '../../../adapters/ldap/index.js';

/** Each attribute (lower-cased) → its EQUALITY rule (lower-cased); undefined where the schema gives none or was not read. */
export async function equalityRules(client: Client, attributes: readonly string[]): Promise<Map<string, string | undefined>> {
  const [root] = await searchEntries(client, { base: '', scope: 'base', filter: '(objectClass=*)', attributes: ['subschemaSubentry'] });
  const subschema = root?.attributes['subschemaSubentry']?.[0];
  const definitions = subschema
    ? ((await searchEntries(client, { base: subschema, scope: 'base', filter: '(objectClass=subschema)', attributes: ['attributeTypes'] }))[0]?.attributes['attributeTypes'] ?? [])
    : [];
  return rulesOf(definitions, attributes);
}

/** rulesOf the definitions given (AttributeTypeDescription texts). */
export function rulesOf(definitions: readonly string[], attributes: readonly string[]): Map<string, string | undefined> {
  const types = new Map<string, { equality: string | undefined; sup: string | undefined }>();
  for (const definition of definitions) {
    const parsed = parseAttributeType(definition);
    if (parsed) for (const name of parsed.names) types.set(name, parsed);
  }
  const ruleOf = (name: string): string | undefined => {
    // A SUP chain is short; the bound only stops a schema that loops.
    let type = types.get(name);
    for (let depth = 0; type && depth < 16; depth++) {
      if (type.equality) return type.equality;
      type = type.sup === undefined ? undefined : types.get(type.sup);
    }
    return undefined;
  };
  return new Map(attributes.map((a) => [a.toLowerCase(), ruleOf(a.toLowerCase())]));
}

/** The names (and OID), EQUALITY and SUP of one definition, lower-cased; undefined when it does not read as one. */
function parseAttributeType(definition: string): { names: string[]; equality: string | undefined; sup: string | undefined } | undefined {
  const oid = /^\s*\(\s*([\w.-]+)/.exec(definition)?.[1];
  if (!oid) return undefined;
  const quoted = /\bNAME\s+(?:'([^']*)'|\(\s*((?:'[^']*'\s*)+)\))/.exec(definition);
  const names = quoted ? (quoted[1] !== undefined ? [quoted[1]] : [...quoted[2]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!)) : [];
  // Keywords are read with the quoted texts (NAME, DESC) left out: a description may say anything.
  const bare = definition.replace(/'[^']*'/g, "''");
  const keyword = (k: string) => new RegExp(`\\b${k}\\s+([\\w.-]+)`).exec(bare)?.[1]?.toLowerCase();
  return { names: [oid, ...names].map((n) => n.toLowerCase()), equality: keyword('EQUALITY'), sup: keyword('SUP') };
}
