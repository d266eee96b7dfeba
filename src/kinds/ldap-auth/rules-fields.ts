import type { Diagnostics } from '../../core/diagnostics.js';
import { assertNever } from '../../core/plan.js';
import { reportAt } from './report.js';
import { ldapFieldSpec, type LdapFieldSpec } from './schema-fields.js';
import { urlListProblems } from './syntax.js';
import { templateFindings } from './template.js';
import type { LdapAuthDocument } from './types.js';
import { boolOf, countOf, integerOf, readCidr, readDuration } from '../../values/index.js';
import { listItems } from './values.js';
import { textMapOf } from './config-form.js';

/** Same wording as the schema's x-message, so a value is described the same way at either stage. */
const DURATION_MESSAGE = 'must be a duration (e.g. 90s, 1h) or a whole number of seconds';

/**
 * Checks each config value, once references are resolved, against its field's form (the schema
 * saw `${env:X}` and could not), plus the syntax of url, CIDR blocks and filter templates.
 */
export function checkConfigFields(doc: LdapAuthDocument, diags: Diagnostics): void {
  const config = doc.data.config ?? {};
  for (const [name, value] of Object.entries(config)) {
    const spec = ldapFieldSpec(name);
    if (spec) for (const problem of fieldProblems(spec, value)) reportAt(diags, doc, ['config', name], problem);
    if (typeof value === 'string' && (name === 'userfilter' || name === 'groupfilter')) checkTemplate(doc, name, value, diags);
  }
}

/**
 * A filter template: an unclosed action is an error (the service refuses it); an unknown
 * action is one of the rules the service does not enforce (it only parses the template, and
 * every login fails), so a document may acknowledge it, and it is then a warning.
 */
function checkTemplate(doc: LdapAuthDocument, name: 'userfilter' | 'groupfilter', value: string, diags: Diagnostics): void {
  const findings = templateFindings(value, name === 'userfilter' ? ['UserAttr', 'Username'] : ['UserDN', 'Username']);
  const acknowledged = (doc.data.acknowledge ?? []).includes('filter-template-unknown-action');
  for (const problem of findings.unknownActions) {
    if (acknowledged) reportAt(diags, doc, ['config', name], `${problem}; accepted: acknowledged as filter-template-unknown-action`, 'warning');
    else reportAt(diags, doc, ['config', name], `${problem}; the service accepts it and fails every login: to keep it, add filter-template-unknown-action to the document's acknowledge list`);
  }
  if (findings.unclosed) reportAt(diags, doc, ['config', name], findings.unclosed);
}

function fieldProblems(spec: LdapFieldSpec, value: unknown): string[] {
  switch (spec.type) {
    case 'string':
      return typeof value === 'string' ? stringProblems(spec.name, value) : [];
    case 'bool':
      return boolOf(value) === undefined ? ['must be true or false'] : [];
    case 'duration': {
      const parsed = readDuration(value);
      if (parsed.kind === 'refused') return [DURATION_MESSAGE];
      // The service truncates silently; a manifest says what it means.
      return parsed.value.truncated ? ['must be a whole number of seconds (the server drops fractions of a second)'] : [];
    }
    case 'count':
      return countOf(value) === undefined ? ['must be a whole number (0 or more)'] : [];
    case 'integer':
      return integerOf(value) === undefined ? ['must be a whole number'] : [];
    case 'list': {
      const items = listItems(value);
      if (!items) return ['must be a list of strings or a comma-separated string'];
      if (spec.items !== 'cidrs') return [];
      return items
        .filter((c) => c !== '')
        .flatMap((c) => {
          const read = readCidr(c);
          return read.kind === 'refused' ? [`"${c}" ${read.reason}`] : [];
        });
    }
    case 'enum': {
      const shown = spec.values.filter((v) => v !== '');
      return typeof value === 'string' && spec.values.includes(value) ? [] : [`must be one of ${shown.join(', ')}`];
    }
    case 'map':
      return textMapOf(value) === undefined ? ['must be a mapping of names to text (or a list of name=value items)'] : [];
    default:
      return assertNever(spec);
  }
}

function stringProblems(field: string, value: string): string[] {
  switch (field) {
    case 'url':
      return urlListProblems(value);
    default:
      return [];
  }
}
