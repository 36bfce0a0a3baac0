// Request ids: random (version 4) UUIDs from the CSPRNG, as unguessable as
// `crypto.randomUUID()`'s. Every error response carries one, in its body and its log
// line. randomUUID() builds each id from twenty string pieces, which then has to be
// flattened and collected; here a batch of ids is formatted into one string at a time
// and each id is a slice of it, a single small object.
import { randomFillSync } from 'node:crypto';

const BATCH = 256;
const BYTES = 16;
const LENGTH = 36;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
const DASH = 0x2d;

const random = Buffer.alloc(BYTES * BATCH);
const text = Buffer.alloc(LENGTH * BATCH);
let batch = '';
let next = BATCH;

export function requestId(): string {
  if (next === BATCH) refill();
  const start = LENGTH * next++;
  return batch.slice(start, start + LENGTH);
}

function refill(): void {
  randomFillSync(random);
  let at = 0;
  for (let id = 0; id < random.length; id += BYTES) {
    random[id + 6] = (random[id + 6]! & 0x0f) | 0x40; // version 4
    random[id + 8] = (random[id + 8]! & 0x3f) | 0x80; // the RFC 9562 variant
    for (let i = 0; i < BYTES; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = DASH;
      const byte = random[id + i]!;
      text[at++] = HEX[byte >> 4]!;
      text[at++] = HEX[byte & 15]!;
    }
  }
  batch = text.toString('latin1');
  next = 0;
}
