// `ctx.form()`: an HTML form's body, URL-encoded or multipart (files included), parsed by
// the platform's own `Request.formData()` (undici), as Hono's `parseBody()` does.
import { HttpError } from '../errors/http-error.ts';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

export async function parseFormBody(body: Buffer, contentType: string | undefined): Promise<FormData> {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) {
    throw new HttpError(415, `The request body is not a form: its Content-Type is ${contentType === undefined ? 'missing' : `"${contentType}"`}, not ${FORM_TYPES.join(' or ')}.`);
  }
  // The URL is never fetched: a Request needs one to carry the body to its parser.
  const request = new Request('http://svc.invalid/', { method: 'POST', headers: { 'content-type': contentType! }, body });
  try {
    return await request.formData();
  } catch (e) {
    throw new HttpError(400, `The request body is not a valid ${type} form: ${(e as Error).message}`);
  }
}
