// Where JSON text stops being JSON, and what was expected there. V8's JSON.parse is the only
// judge: the offending character is the end of the shortest prefix JSON.parse can no longer see as
// the start of a document (found by bisection), and the wording comes from V8's own reason, reworded
// to the fixture problems' "expected …; found …". Node 20's V8 gives no position for some errors
// ("Unexpected token"), so the position never depends on its message.

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

const AT_POSITION = /at position (\d+)/;

/** Whether `prefix` could still begin a JSON document (or already is one). */
function viable(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    const at = AT_POSITION.exec(message);
    if (at) return Number(at[1]) >= prefix.length;
    return /Unexpected end of JSON input/.test(message);
  }
}

const REASONS: [RegExp, string][] = [
  [/double-quoted property name|property name or '\}'/, 'a property name in double quotes'],
  [/':' after property name/, '":" after the property name'],
  [/',' or '\}' after property value/, '"," or "}" after a property value'],
  [/',' or '\]' after array element/, '"," or "]" after an array element'],
  [/Bad control character/, 'no raw control characters in a string (use an escape)'],
  [/Bad Unicode escape/, 'four hex digits after \\u'],
  [/Bad escaped character/, 'an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)'],
  [/No number after minus sign|Exponent part is missing|Unterminated fractional/, 'a digit'],
  [/Unterminated string/, 'a closing quote (")'],
  [/non-whitespace character after JSON/, 'end of file after the JSON value'],
];

const WORDS = ['true', 'false', 'null'];

/** What may come at `offset` when V8 only says "Unexpected token" or "Unexpected end". */
function expectedAt(text: string, offset: number): string {
  const before = text.slice(0, offset);
  if (viable(before + '0')) return 'a JSON value (object, array, string, number, true, false or null)';
  const partial = /[a-z]+$/.exec(before)?.[0];
  const word = partial ? WORDS.find((w) => w.startsWith(partial) && w !== partial) : undefined;
  if (word) return `"${word}"`;
  if (viable(before + ':')) return '":" after the property name';
  if (viable(before + '""')) return 'a property name in double quotes';
  const comma = viable(before + ',');
  if (comma && viable(before + '}')) return '"," or "}" after a property value';
  if (comma && viable(before + ']')) return '"," or "]" after an array element';
  if (viable(before + '}')) return '"}"';
  if (viable(before + ']')) return '"]"';
  return 'valid JSON';
}

/** Undefined when `text` is JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let reason: string;
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    reason = (error as Error).message;
  }
  // The shortest prefix that is not viable ends at the offending character.
  let low = 0;
  let high = text.length;
  if (viable(text)) low = high;
  else {
    while (low < high) {
      const mid = (low + high) >> 1;
      if (viable(text.slice(0, mid + 1))) low = mid + 1;
      else high = mid;
    }
  }
  const offset = low;
  const foundHere = offset >= text.length ? 'end of file' : JSON.stringify(text[offset]);
  const known = REASONS.find(([pattern]) => pattern.test(reason))?.[1];
  return { offset, message: `expected ${known ?? expectedAt(text, offset)}; found ${foundHere}` };
}
