// The request body as text: `ctx.text()` in the charset the request declares (RFC 9110
// §8.3.2), UTF-8 when it declares none; `ctx.json()` in UTF-8 alone, as JSON must be
// (RFC 8259 §8.1), and refused when it is not, rather than read with replacement
// characters in place of the bytes it got wrong.
import { TextDecoder } from 'node:util';
import { HttpError } from '../errors/http-error.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

export function utf8Text(body: Buffer): string {
  try {
    return UTF8.decode(body);
  } catch {
    throw new HttpError(400, 'The request body is not valid UTF-8.');
  }
}

export function declaredText(body: Buffer, contentType: string | undefined): string {
  const charset = contentType === undefined ? undefined : CHARSET.exec(contentType)?.[1];
  if (charset === undefined || /^utf-?8$/i.test(charset)) return body.toString('utf8');
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    throw new HttpError(415, `The charset "${charset}" of the request body is not one this server reads; send UTF-8.`);
  }
  return decoder.decode(body);
}
