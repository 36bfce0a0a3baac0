// Appending to svc.log when it is a FIFO, or a link to one or to a pipe (/dev/stdout in
// a container). A blocking open waits for a reader and a blocking write for room in the
// pipe, each holding a thread of Node's pool meanwhile, and Node's exit waits for those
// threads: a FIFO nobody read kept `svc serve` from ever exiting. Opened without waiting,
// a FIFO with no reader fails at once (ENXIO); a full pipe is waited for here, for as
// long as its reader takes something now and then.
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';

const APPEND_WITHOUT_WAITING = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;
const FULL_PIPE_RETRY_MS = 10;
/** A reader that has taken nothing for this long is not coming back soon. */
const GIVE_UP_MS = 3000;

export async function appendToPipe(file: string, chunk: Buffer): Promise<void> {
  const handle = await open(file, APPEND_WITHOUT_WAITING).catch(noReader);
  try {
    let progress = performance.now();
    for (let at = 0; at < chunk.length; ) {
      try {
        at += (await handle.write(chunk, at)).bytesWritten;
        progress = performance.now();
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
        if (performance.now() - progress > GIVE_UP_MS) throw new Error(`the process reading it has taken nothing for ${GIVE_UP_MS / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, FULL_PIPE_RETRY_MS));
      }
    }
  } finally {
    await handle.close();
  }
}

/**
 * Appends `chunk` synchronously, for a process that exits now: to a regular file as
 * usual; to a FIFO or pipe without waiting for a reader or for room (it fails instead).
 */
export function appendNow(file: string, chunk: Buffer): void {
  let fd: number;
  try {
    fd = openSync(file, APPEND_WITHOUT_WAITING);
  } catch (e) {
    noReader(e);
  }
  try {
    for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
  } finally {
    closeSync(fd);
  }
}

function noReader(e: unknown): never {
  if ((e as NodeJS.ErrnoException).code === 'ENXIO') throw new Error('it is a FIFO that no process reads');
  throw e;
}
