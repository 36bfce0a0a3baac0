// Reading a file of shoebox/ that may be something else in its place: a FIFO (`mkfifo`)
// is read by waiting for a writer, for ever, in a thread of Node's pool that Node's exit
// waits for too (or in the main thread, read synchronously): a request never answered,
// a server that never started, nor stopped on SIGTERM. Opened without waiting, it is told
// apart at once and refused as no regular file; a folder fails as before, with EISDIR.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

const READ_WITHOUT_WAITING = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await openRegularFile(path);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** An open handle on `path`, refused (and closed) unless it is a regular file. */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, READ_WITHOUT_WAITING);
  try {
    refuseIrregular(await handle.stat());
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}

export function readRegularFileSync(path: string): Buffer {
  const fd = openSync(path, READ_WITHOUT_WAITING);
  try {
    refuseIrregular(fstatSync(fd));
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function refuseIrregular(info: Stats): void {
  if (info.isFile()) return;
  if (info.isDirectory()) throw Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR' });
  throw new Error('not a regular file (a FIFO, a socket or a device)');
}
