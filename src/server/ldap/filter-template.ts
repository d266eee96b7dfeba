/**
 * Validation of userfilter/groupfilter templates at config write. The service only parses
 * them as Go text/template (sdk/helper/ldaputil/config.go NewConfigEntry): a field the
 * template's context lacks (`{{.Nope}}`) is accepted and fails only at login, when the
 * template runs. Filters only ever use field actions, so that is what is read: `{{.Field}}`
 * (spaces, chains `.A.B` and Go's `{{- ` / ` -}}` trim markers allowed), lexed as Go's lexer
 * does (text/template/parse/lex.go), so a malformed one fails with Go's words at the point
 * Go's lexer stops. Any other action is refused as unsupported.
 */

const TEMPLATE_NAME = 'queryTemplate';

/** The first problem of the template, or undefined when it is valid. */
export function filterTemplateError(template: string): string | undefined {
  let at = 0;
  for (;;) {
    const open = template.indexOf('{{', at);
    if (open === -1) return undefined;
    const action = lexAction(template, open);
    if (action.kind === 'error') return `template: ${TEMPLATE_NAME}:${lineOf(template, action.at)}: ${action.message}`;
    if (action.fields === 0 || action.other) {
      const body = template.slice(open, action.end);
      if (action.fields === 0 && !action.other) return `template: ${TEMPLATE_NAME}:${lineOf(template, open)}: missing value for command`;
      return `template: ${TEMPLATE_NAME}:${lineOf(template, open)}: unsupported action "${body}"`;
    }
    at = action.end;
  }
}

type Lexed = { kind: 'action'; end: number; fields: number; other: boolean } | { kind: 'error'; at: number; message: string };

/** The action opening at `open` (`{{`), up to and with its closing `}}`. */
function lexAction(text: string, open: number): Lexed {
  let i = open + 2;
  // lexLeftDelim: "{{- " trims the text before; the marker is "-" and a space.
  if (text[i] === '-' && isSpace(text[i + 1])) i += 1;
  let fields = 0;
  let other = false;
  for (;;) {
    // atRightDelim: "}}", or " -}}" (a space, then the trim marker).
    if (text.startsWith('}}', i)) return { kind: 'action', end: i + 2, fields, other };
    if (isSpace(text[i]) && text.startsWith('-}}', i + 1)) return { kind: 'action', end: i + 4, fields, other };
    if (i >= text.length) return { kind: 'error', at: open, message: 'unclosed action' };
    const c = text[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '.' && !/[0-9]/.test(text[i + 1] ?? '')) {
      // lexFieldOrVariable: the name, then something that may end it.
      let j = i + 1;
      while (j < text.length && isAlphaNumeric(text.codePointAt(j)!)) j += String.fromCodePoint(text.codePointAt(j)!).length;
      if (!atTerminator(text, j)) return { kind: 'error', at: i, message: `bad character ${goRuneText(text.codePointAt(j)!)}` };
      fields++;
      i = j;
      continue;
    }
    other = true;
    i += String.fromCodePoint(text.codePointAt(i)!).length;
  }
}

/** lex.go atTerminator: what may follow a field name. */
function atTerminator(text: string, i: number): boolean {
  if (i >= text.length) return true;
  const c = text[i]!;
  if (isSpace(c) || '.,|:)('.includes(c)) return true;
  return text.startsWith('}}', i);
}

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

/** lex.go isAlphaNumeric: '_', a Unicode letter or digit. */
function isAlphaNumeric(cp: number): boolean {
  return /^[_\p{L}\p{Nd}]$/u.test(String.fromCodePoint(cp));
}

/** Go's %#U: `U+007D '}'`, without the quoted character when it is not printable. */
function goRuneText(cp: number): string {
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const ch = String.fromCodePoint(cp);
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch) ? `${code} '${ch}'` : code;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
