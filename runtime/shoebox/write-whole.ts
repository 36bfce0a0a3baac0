// A write that fails part way (a full disk) leaves what fitted in its file: a file no
// sweep removes, holding the space the disk lacks, one more with every failed write.
import { rm, writeFile } from 'node:fs/promises';

/** `writeFile`, removing the file again when the write fails; the failure is rethrown as it came. */
export async function writeWhole(file: string, data: string | Uint8Array): Promise<void> {
  try {
    await writeFile(file, data);
  } catch (e) {
    await rm(file, { force: true }).catch(() => {});
    throw e;
  }
}
