/**
 * Where a JSON text first breaks, as `unexpected '}' at position 12, line 2, column 5`.
 * JSON.parse's own messages differ between V8 versions and some quote the whole input (which may
 * span many lines), so the CLI (--input) and the API (request bodies) locate the error themselves
 * with this small RFC 8259 scanner. It runs only after JSON.parse has failed.
 */
const FAIL = Symbol('json-syntax-error');

/** The UTF-16 offset of the first syntax error (`text.length` for a premature end), or undefined if the text is valid. */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  let failedAt = 0;
  const fail = (): never => {
    failedAt = i;
    throw FAIL;
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const digits = (atLeastOne: boolean) => {
    const start = i;
    while (i < text.length && text[i]! >= '0' && text[i]! <= '9') i++;
    if (atLeastOne && i === start) fail();
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits(true);
    if (text[i] === '.') {
      i++;
      digits(true);
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits(true);
    }
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      const ch = text[i];
      if (ch === undefined || ch < ' ') fail();
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        i++;
        const escape = text[i];
        if (escape === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            if (!/^[0-9a-fA-F]$/.test(text[i] ?? '')) fail();
          }
        } else if (escape === undefined || !'"\\/bfnrt'.includes(escape)) fail();
      }
      i++;
    }
  };
  const sequence = (close: string, item: () => void) => {
    i++; // the opening bracket
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      ws();
      if (text[i] === close) {
        i++;
        return;
      }
      if (text[i] !== ',') fail();
      i++;
      ws();
    }
  };
  const member = () => {
    if (text[i] !== '"') fail();
    string();
    ws();
    if (text[i] !== ':') fail();
    i++;
    value();
  };
  function value(): void {
    ws();
    const ch = text[i];
    if (ch === '{') sequence('}', member);
    else if (ch === '[') sequence(']', value);
    else if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) number();
    else fail();
  }
  try {
    value();
    ws();
    if (i < text.length) fail();
    return undefined;
  } catch (error) {
    if (error === FAIL) return failedAt;
    return undefined; // e.g. a RangeError from absurd nesting: leave it to JSON.parse's message
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastBreak };
}

/** A one-line description of why `text` is not JSON; `fallback` is JSON.parse's message. */
export function describeJsonError(text: string, fallback: string): string {
  const offset = jsonErrorOffset(text);
  if (offset === undefined) return fallback.replace(/\s+/g, ' ').slice(0, 120);
  const { line, column } = lineAndColumn(text, offset);
  const where = `at position ${offset}, line ${line}, column ${column}`;
  if (offset >= text.length) return `unexpected end of input ${where}`;
  const ch = text[offset]!;
  // A visible ASCII character as itself, a control character or quote as a JSON string ("\t"), and
  // anything else (a no-break space pasted from a page, a byte-order mark) by its code point, since
  // quoting it would show a blank or nothing.
  const shown = /^[!-~]$/.test(ch) && ch !== "'" ? `'${ch}'`
    : ch < ' ' || ch === "'" ? JSON.stringify(ch) : `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return `unexpected ${shown} ${where}`;
}
