/**
 * Removes named properties from the object literals of a TypeScript source, for the bundle (build.ts): the
 * schemas' `toJsonSchema` methods and their `jsonSchema` keywords feed only the OpenAPI document, which the
 * widget never builds. Node-only, never part of the bundle.
 *
 * A property is `name: …` or `name(…) {…}` after `{`, `,` or a line break; its value runs to the first `,` or
 * closing bracket outside brackets, strings, template literals and comments. Optional and type members
 * (`name?: T`, `name(): T;`) do not match. A source this scanner cannot follow (a bracket that never closes) is
 * returned as it was: the bundle keeps the property rather than lose code.
 */
export function stripProperties(source: string, names: readonly string[]): string {
  const property = new RegExp(String.raw`([{,]\s*|\n\s*)(?:${names.join('|')})(?:\s*:|\s*\([^()]*\)\s*\{)`, 'g');
  let out = '';
  let from = 0;
  for (let match = property.exec(source); match !== null; match = property.exec(source)) {
    const start = match.index + (match[1]?.length ?? 0);
    // A method's value is its body, from its `{`; an arrow's or a literal's starts after the colon.
    const end = valueEnd(source, match[0].endsWith('{') ? property.lastIndex - 1 : property.lastIndex, true);
    if (end === undefined) return source;
    out += source.slice(from, start);
    from = source[end] === ',' ? end + 1 : end;
    // From the comma dropped, which also opens the next property: two stripped on one line (`{ a: 1, b: 2 }`) were only
    // the first stripped (the nemotron presets' `{ mlpActivation: …, layerNorm1p: true, rotaryPercent: 0.5 }`).
    property.lastIndex = end;
  }
  return out + source.slice(from);
}

/**
 * The index of the bracket that closes the one opened just before `at` (a block's `}` after its `{`), past nested
 * brackets, strings, templates and comments; undefined when none does.
 */
export const closingBracket = (source: string, at: number): number | undefined => valueEnd(source, at, false);

const OPEN = '([{';
const CLOSE = ')]}';

/**
 * The index of the closing bracket (or, with `atComma`, the `,`) that ends the expression starting at `at`, outside
 * nested brackets, strings, templates and comments; undefined when none does or the brackets do not pair.
 */
function valueEnd(source: string, at: number, atComma: boolean): number | undefined {
  const stack: string[] = [];
  for (let i = at; i < source.length; i++) {
    const c = source[i] ?? '';
    if (c === '/' && source[i + 1] === '/') i = lineEnd(source, i);
    else if (c === '/' && source[i + 1] === '*') i = source.indexOf('*/', i + 2) + 1 || source.length;
    else if (c === '\'' || c === '"') i = quoteEnd(source, i, c);
    else if (c === '`') i = templateEnd(source, i);
    else if (OPEN.includes(c)) stack.push(CLOSE[OPEN.indexOf(c)] ?? '');
    else if (CLOSE.includes(c)) {
      if (stack.length === 0) return i;
      if (stack.pop() !== c) return undefined;
    } else if (atComma && c === ',' && stack.length === 0) return i;
  }
  return undefined;
}

function lineEnd(source: string, i: number): number {
  const end = source.indexOf('\n', i);
  return end === -1 ? source.length : end;
}

function quoteEnd(source: string, i: number, quote: string): number {
  for (let j = i + 1; j < source.length; j++) {
    if (source[j] === '\\') j++;
    else if (source[j] === quote) return j;
  }
  return source.length;
}

/** The closing backquote of the template literal opening at `i`, past any `${…}` (which may nest templates). */
function templateEnd(source: string, i: number): number {
  for (let j = i + 1; j < source.length; j++) {
    if (source[j] === '\\') j++;
    else if (source[j] === '`') return j;
    else if (source[j] === '$' && source[j + 1] === '{') {
      const end = valueEnd(source, j + 2, false);
      if (end === undefined) return source.length;
      j = end;
    }
  }
  return source.length;
}

/** A string literal, single-, double- or back-quoted (a template without `${…}`), or a `+` of them. */
const ONE = String.raw`(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\`(?:[^\`\\$]|\\.|\$(?!\{))*\`)`;
const LITERAL = new RegExp(String.raw`^\s*${ONE}(?:\s*\+\s*${ONE})*\s*$`);

/**
 * Blanks the literal passed as `param` to the functions a source declares with such a parameter, in the calls of that
 * same source: `const flag = (value: boolean, description: string) => withDefault(boolean({ description }), value)`
 * then `flag(true, 'Overlap …')` becomes `flag(true, '')`. Only a function whose statement uses the parameter as
 * nothing but an option of that name (`{ description }`, `description: \`${description}, in bytes.\``) or as the last
 * argument of another such function qualifies (its options may hold a call, `max: thousand(100)`): one that put it in
 * a message is left alone. Only a literal argument, or the parameter's literal default, is blanked; a variable, or a
 * call of a function declared elsewhere, stays, unless `imported` names that function (with the parameter's position):
 * a helper another source declares, known to qualify there.
 */
export function blankLiteralArguments(source: string, param: string, imported: Readonly<Record<string, number>> = {}): string {
  const declared = new RegExp(String.raw`(?:const|function)\s+(\w+)\s*=?\s*\(([^()]*)\)(.*(?:\n[ \t].*)*)`, 'g');
  const candidates = new Map<string, { index: number; uses: string }>();
  for (const [, name, params, statement] of source.matchAll(declared)) {
    const index = (params ?? '').split(',').findIndex((p) => p.trim().replace(/[?:=].*$/s, '').trim() === param);
    if (name !== undefined && index >= 0) candidates.set(name, { index, uses: statement ?? '' });
  }
  // As an option: `{ description }`, `description: description`, `description: \`${description}…\``.
  const asOption = new RegExp(String.raw`(?<=(?<!\$)\{(?:[^{}()]|\([^()]*\))*)\b${param}(?=\s*[,}])|\b${param}:\s*(?:${param}\b|\`[^\`$]*\$\{${param}\}[^\`$]*\`)`, 'g');
  const passedOn = new RegExp(String.raw`\b(\w+)\((?:[^()]|\([^()]*\))*?,?\s*${param}\)`, 'g');
  const positions = new Map<string, number>(Object.entries(imported));
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, { index, uses }] of candidates) {
      if (positions.has(name)) continue;
      const rest = uses.replace(asOption, '').replace(passedOn, (call, callee: string) => (positions.has(callee) ? '' : call));
      if (new RegExp(String.raw`\b${param}\b`).test(rest)) continue;
      positions.set(name, index);
      grew = true;
    }
  }
  let out = source;
  for (const [name, index] of positions) {
    // Its default, given when a call passes none, is blanked too: pricePerGpuHourField's (`(description = 'Price of one
    // GPU-hour, for costs.') =>`, request-parts.ts) was 19 B of the widget's 80 kB gzip budget.
    out = out.replace(new RegExp(String.raw`(\b${name}\s*=?\s*\([^()]*\b${param}\s*=\s*)${ONE}`), "$1''");
    const call = new RegExp(String.raw`(?<![\w.$])${name}\(`, 'g');
    let next = '';
    let from = 0;
    for (let match = call.exec(out); match !== null; match = call.exec(out)) {
      let start = call.lastIndex;
      for (let arg = 0; arg < index; arg++) {
        const end = valueEnd(out, start, true);
        if (end === undefined || out[end] !== ',') { start = -1; break; }
        start = end + 1;
      }
      const end = start < 0 ? undefined : valueEnd(out, start, true);
      if (end === undefined || !LITERAL.test(out.slice(start, end))) continue;
      next += `${out.slice(from, start)}''`;
      from = end;
    }
    out = next + out.slice(from);
  }
  return out;
}
