// `ctx.json()`: the request body as JSON, or a 400 that says why not. Nesting is capped,
// as PHP's json_decode caps it at 512 (Laravel's `$request->json()`): a body of a few
// kilobytes of `[[[[…` would otherwise overflow the stack of whatever walks the value
// next (JSON.stringify fails at a few thousand levels), a 500 the client provoked.
import { HttpError } from '../errors/http-error.ts';

const MAX_JSON_DEPTH = 512;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function parseJsonBody(body: string): unknown {
  // A byte order mark may lead JSON text (RFC 8259 §8.1: a parser may ignore it); JSON.parse refuses it.
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  // Each level takes two characters: a shorter body cannot be too deep, and is not scanned.
  if (text.length > 2 * MAX_JSON_DEPTH && nestedTooDeep(text)) {
    throw new HttpError(400, `The request body is JSON nested deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `The request body is not valid JSON: ${(e as Error).message}`);
  }
}

/** Counts brackets outside strings; malformed text is left for JSON.parse to name. */
function nestedTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return false;
}
