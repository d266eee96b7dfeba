/**
 * The service's userfilter / groupfilter templates use Go text/template syntax. Only field
 * references (`{{.UserAttr}}`, `{{ .Username }}`, `{{- .UserDN -}}`) occur in these filters, so
 * that is what we support; any other action is reported as a template error. Messages follow
 * Go's (`template: queryTemplate:1: unclosed action`) so the server can answer like the service.
 */
import { escapeFilter } from 'ldapts';

export const DEFAULT_USER_FILTER = '({{.UserAttr}}={{.Username}})';
export const DEFAULT_GROUP_FILTER =
  '(|(memberUid={{.Username}})(member={{.UserDN}})(uniqueMember={{.UserDN}}))';

export class FilterTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FilterTemplateError';
  }
}

type Part = { text: string } | { field: string; line: number };

/** Parses a template; throws FilterTemplateError on a syntax error. */
export function parseFilterTemplate(template: string): Part[] {
  const parts: Part[] = [];
  let rest = template;
  let line = 1;
  while (rest.length > 0) {
    const open = rest.indexOf('{{');
    if (open < 0) {
      parts.push({ text: rest });
      break;
    }
    let text = rest.slice(0, open);
    const close = rest.indexOf('}}', open + 2);
    if (close < 0) throw templateError(line + count(text, '\n'), 'unclosed action');
    let body = rest.slice(open + 2, close);
    // `{{- ` and ` -}}` trim the surrounding white space, as in Go.
    if (/^-\s/.test(body)) {
      text = text.trimEnd();
      body = body.slice(1);
    }
    let after = rest.slice(close + 2);
    if (/\s-$/.test(body)) {
      after = after.trimStart();
      body = body.slice(0, -1);
    }
    line += count(rest.slice(0, open), '\n');
    if (text) parts.push({ text });
    const field = /^\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(body)?.[1];
    if (field === undefined) throw templateError(line, `unsupported action {{${body}}}`);
    parts.push({ field, line });
    line += count(body, '\n');
    rest = after;
  }
  return parts;
}

/** Renders a template with filter-escaped values; unknown fields are an error. */
export function renderFilterTemplate(template: string, values: Record<string, string>): string {
  return parseFilterTemplate(template)
    .map((part) => {
      if ('text' in part) return part.text;
      if (!Object.hasOwn(values, part.field)) {
        const known = Object.keys(values).join(', ');
        throw templateError(part.line, `can't evaluate field ${part.field} (fields: ${known})`);
      }
      return escapeFilter`${values[part.field] ?? ''}`;
    })
    .join('');
}

/** The fields a template refers to (for config checks such as "uses UserAttr"). */
export function templateFields(template: string): string[] {
  return parseFilterTemplate(template).flatMap((p) => ('field' in p ? [p.field] : []));
}

function templateError(line: number, message: string): FilterTemplateError {
  return new FilterTemplateError(`template: queryTemplate:${line}: ${message}`);
}

function count(s: string, ch: string): number {
  return s.split(ch).length - 1;
}
