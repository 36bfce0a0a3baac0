// `Range: bytes=…` on a file (RFC 9110 §14): one range, which a video player seeking or a
// download resuming asks for. Several ranges in one request (a multipart answer) are
// rare enough that the whole file is the answer, as the RFC lets a server choose.

/** The bytes `start` to `end`, both included. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What a `Range` header asks of a file of `size` bytes: one range; `'unsatisfiable'`
 * when it starts past the end (416); null when the whole file is the answer (no header,
 * another unit, several ranges, a header that does not parse).
 */
export function byteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.replace(/\s+/g, ''));
  if (match === null) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // The last N bytes; a file shorter than N is sent whole, as a range.
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null; // invalid: ignored (§14.1.1)
  return start >= size ? 'unsatisfiable' : { start, end };
}
