// `multipart/form-data` bodies, parsed by busboy. Not by undici's `Request.formData()`: the
// one in Node 20 refuses valid bodies that browsers never send but other clients do (a
// preamble, an epilogue, `filename*=`), and Node 22 and 24 each ship another parser.
import busboy from 'busboy';
import { HttpError } from '../errors/http-error.ts';

// Each part costs objects beyond its bytes, so a body of many tiny parts would cost far more
// memory than its size: the counts are capped (1000 fields, as PHP's max_input_vars). The
// sizes of values and files are not: the body limit already caps them.
export const MAX_FIELDS = 1000;
export const MAX_FILES = 100;

// busboy's errors, in words for the client.
const PROBLEMS: Record<string, string> = {
  'Malformed content type': 'its Content-Type does not parse',
  'Multipart: Boundary not found': 'its Content-Type names no boundary',
  'Malformed part header': "a part's headers are malformed",
  'Unexpected end of form': 'it ends before its closing boundary',
  'Unexpected end of file': 'it ends before its closing boundary',
};

const NAMELESS = 'a part has no name';

type Part = { name: string; value: string } | { name: string; chunks: Buffer[]; filename: string | undefined; type: string };

export function parseMultipart(body: Buffer, contentType: string): Promise<FormData> {
  return new Promise((resolve, reject) => {
    const invalid = (problem: string): void => reject(new HttpError(400, `The request body is not a valid multipart/form-data form: ${problem}.`));
    const broken = (e: Error): void => invalid(PROBLEMS[e.message] ?? e.message);
    const tooMany = (what: string, max: number): void => reject(new HttpError(413, `The form has more than ${max} ${what}.`));
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // Browsers send a file name's UTF-8 bytes as they are in `filename=` (RFC 7578 §4.2).
        defParamCharset: 'utf8',
        limits: { fields: MAX_FIELDS, files: MAX_FILES, fieldSize: Infinity },
      });
    } catch (e) {
      broken(e as Error);
      return;
    }
    const parts: Part[] = [];
    // busboy's types promise every part a name, but a part without one comes with undefined.
    parser.on('field', (name: string | undefined, value: string | undefined) => {
      if (name === undefined) invalid(NAMELESS);
      // busboy decodes a value in the charset its part names, and gives undefined for one it does not know.
      else if (value === undefined) reject(new HttpError(415, `The form's field "${name}" is in a charset the server does not know.`));
      else parts.push({ name, value });
    });
    parser.on('file', (name: string | undefined, stream, info) => {
      stream.on('error', broken);
      if (name === undefined) {
        invalid(NAMELESS);
        stream.resume(); // busboy closes only once every file stream has been read
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      parts.push({ name, chunks, filename: info.filename, type: info.mimeType });
    });
    parser.on('fieldsLimit', () => tooMany('fields', MAX_FIELDS));
    parser.on('filesLimit', () => tooMany('files', MAX_FILES));
    parser.on('error', broken);
    parser.on('close', () => resolve(formData(parts)));
    parser.end(body);
  });
}

function formData(parts: Part[]): FormData {
  const form = new FormData();
  for (const part of parts) {
    if ('value' in part) form.append(part.name, part.value);
    // busboy gives no file name for `filename=""` (a browser's empty file input), nor for an
    // application/octet-stream part that names none: both are files all the same.
    else form.append(part.name, new File(part.chunks, part.filename ?? '', { type: part.type }));
  }
  return form;
}
