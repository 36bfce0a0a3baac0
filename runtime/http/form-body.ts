// `ctx.form()`: an HTML form's body, URL-encoded or multipart (files included), as a web
// `FormData`.
import { HttpError } from '../errors/http-error.ts';
import { parseMultipart } from './multipart.ts';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

export async function parseFormBody(body: Buffer, contentType: string | undefined): Promise<FormData> {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) {
    throw new HttpError(415, `The request body is not a form: its Content-Type is ${contentType === undefined ? 'missing' : `"${contentType}"`}, not ${FORM_TYPES.join(' or ')}.`);
  }
  if (type === 'multipart/form-data') return parseMultipart(body, contentType!);
  // What undici's `Request.formData()` did for these too: UTF-8, split by the URL standard's parser.
  const form = new FormData();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) form.append(name, value);
  return form;
}
