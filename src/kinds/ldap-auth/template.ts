/**
 * Checks a filter template (Go text/template as the server uses it) for the mistakes that would
 * fail a config write or every login: an unclosed action, and actions other than a plain field
 * of the template's context (`{{.UserAttr}}`).
 */
export interface TemplateFindings {
  /** An action never closed: the service refuses the write. */
  unclosed?: string;
  /**
   * Actions other than a known field: the service only parses the template, so it accepts them
   * and every login then fails (an acknowledgeable rule, rules-consistency.ts).
   */
  unknownActions: string[];
}

export function templateFindings(text: string, fields: readonly string[]): TemplateFindings {
  const findings: TemplateFindings = { unknownActions: [] };
  const known = fields.map((f) => `{{.${f}}}`).join(', ');
  let at = 0;
  for (;;) {
    const open = text.indexOf('{{', at);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    if (close < 0) {
      findings.unclosed = 'has an unclosed "{{" (a template action must end with "}}")';
      break;
    }
    const action = text.slice(open + 2, close);
    // Go's trim markers: "{{- " and " -}}".
    const inner = action.replace(/^-\s/, '').replace(/\s-$/, '').trim();
    const field = /^\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner)?.[1];
    if (field === undefined || !fields.includes(field)) {
      findings.unknownActions.push(`has an unknown template action "{{${action}}}" (known: ${known})`);
    }
    at = close + 2;
  }
  return findings;
}

/** Every problem of the template, unknown actions included. */
export function templateProblems(text: string, fields: readonly string[]): string[] {
  const findings = templateFindings(text, fields);
  return [...findings.unknownActions, ...(findings.unclosed ? [findings.unclosed] : [])];
}
