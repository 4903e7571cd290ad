import { OpError } from '../errors/index.ts';

/**
 * The deepest nesting of arrays and objects Exhale reads in JSON from outside (an op's input, a
 * document to import, the CLI's argument). Its own exports nest five levels, an op's input a few
 * more; much deeper is no real data, and walking it (JSON.stringify, zod, our own code) recurses
 * once per level until the stack overflows, which would surface as an internal error.
 */
export const MAX_JSON_DEPTH = 64;

/** The refusal of input nested deeper than MAX_JSON_DEPTH, as a sentence (`errors.input.too_deep`). */
export function tooDeep(key = 'errors.input.too_deep'): OpError {
  return new OpError('invalid_input', key, { max: MAX_JSON_DEPTH });
}

/** Whether a value nests arrays and objects deeper than `max`. Iterative: it never overflows itself. */
export function jsonTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[object, number]> = [[value, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next;
    if (depth > max) return true;
    // Bytes (an attachment) are flat: their elements are numbers, not worth visiting one by one.
    if (ArrayBuffer.isView(node)) continue;
    for (const child of Object.values(node))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** Whether a JSON text nests brackets deeper than `max` (brackets inside strings do not count). */
export function jsonTextTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}
