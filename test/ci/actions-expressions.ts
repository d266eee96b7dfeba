/**
 * The part of GitHub's expression language the templates use: context paths, string, number
 * and boolean literals, `!`, `==`, `!=`, `&&`, `||` (which yield an operand, as GitHub's do),
 * parentheses and function calls. Anything else throws, so a template growing past it fails.
 */
export type ExprValue = string | number | boolean | null | { [k: string]: unknown } | Promise<unknown>;
export interface ExprContext {
  [name: string]: unknown;
  functions: Record<string, (...args: ExprValue[]) => unknown>;
}

export async function interpolate(text: string, context: ExprContext): Promise<string> {
  let out = '';
  let rest = text;
  for (let m = /\$\{\{([\s\S]*?)\}\}/.exec(rest); m; m = /\$\{\{([\s\S]*?)\}\}/.exec(rest)) {
    out += rest.slice(0, m.index) + asString(await evaluate(m[1]!, context));
    rest = rest.slice(m.index + m[0].length);
  }
  return out + rest;
}

export function truthy(v: unknown): boolean {
  return !(v === false || v === null || v === undefined || v === 0 || v === '');
}

function asString(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}

export async function evaluate(text: string, context: ExprContext): Promise<unknown> {
  const tokens = text.match(/\s*('(?:[^']|'')*'|\d+|[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*|==|!=|&&|\|\||[!(),])/g)?.map((t) => t.trim()) ?? [];
  if (tokens.join('') !== text.replace(/\s+/g, '')) throw new Error(`expression not understood by the test runner: ${text}`);
  let i = 0;
  const peek = (): string | undefined => tokens[i];
  const next = (): string => tokens[i++]!;
  const or = async (): Promise<unknown> => {
    let left = await and();
    while (peek() === '||') {
      next();
      const right = await and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const and = async (): Promise<unknown> => {
    let left = await eq();
    while (peek() === '&&') {
      next();
      const right = await eq();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const eq = async (): Promise<unknown> => {
    const left = await unary();
    if (peek() !== '==' && peek() !== '!=') return left;
    const op = next();
    const right = await unary();
    const same = typeof left === 'string' && typeof right === 'string' ? left.toLowerCase() === right.toLowerCase() : left === right;
    return op === '==' ? same : !same;
  };
  const unary = async (): Promise<unknown> => {
    if (peek() === '!') {
      next();
      return !truthy(await unary());
    }
    return primary();
  };
  const primary = async (): Promise<unknown> => {
    const t = next();
    if (t === '(') {
      const v = await or();
      if (next() !== ')') throw new Error(`unbalanced parentheses in ${text}`);
      return v;
    }
    if (t.startsWith("'")) return t.slice(1, -1).replaceAll("''", "'");
    if (/^\d+$/.test(t)) return Number(t);
    if (t === 'true' || t === 'false') return t === 'true';
    if (t === 'null') return null;
    if (peek() === '(') {
      next();
      const args: ExprValue[] = [];
      while (peek() !== ')') {
        args.push((await or()) as ExprValue);
        if (peek() === ',') next();
      }
      next();
      const fn = context.functions[t];
      if (!fn) throw new Error(`function ${t}() not known to the test runner`);
      return fn(...args);
    }
    return t.split('.').reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), context);
  };
  const value = await or();
  if (i !== tokens.length) throw new Error(`expression not understood by the test runner: ${text}`);
  return value;
}
