/**
 * Validation of userfilter/groupfilter templates at config write. The service only parses
 * them as Go text/template (sdk/helper/ldaputil/config.go NewConfigEntry): a field the
 * template's context lacks (`{{.Nope}}`) is accepted and fails only at login, when the
 * template runs. Filters only ever use plain field actions, so that is what is parsed:
 * `{{.Field}}` (spaces and Go's `{{- ` / ` -}}` trim markers allowed). Anything else, or an
 * action left open, is an error in Go's wording.
 */

const TEMPLATE_NAME = 'queryTemplate';

/** The first problem of the template, or undefined when it is valid. */
export function filterTemplateError(template: string): string | undefined {
  let at = 0;
  for (;;) {
    const open = template.indexOf('{{', at);
    if (open === -1) return undefined;
    const line = lineOf(template, open);
    const close = template.indexOf('}}', open + 2);
    if (close === -1) return `template: ${TEMPLATE_NAME}:${line}: unclosed action`;
    const action = template.slice(open + 2, close);
    const inner = action.replace(/^-\s/, '').replace(/\s-$/, '').trim();
    if (inner === '') return `template: ${TEMPLATE_NAME}:${line}: missing value for command`;
    const field = /^\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner)?.[1];
    if (field === undefined) return `template: ${TEMPLATE_NAME}:${line}: unsupported action "{{${action}}}"`;
    at = close + 2;
  }
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
