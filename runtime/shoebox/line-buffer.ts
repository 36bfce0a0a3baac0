// Log lines waiting for their write, UTF-8 encoded as they arrive. Under load a batch
// holds thousands of lines; kept as strings, each would stay alive for the garbage
// collector to copy until the write, then be joined and encoded in one more pass.
// Two buffers take turns: lines go into one while the other is being written.

const INITIAL_BYTES = 64 * 1024;
/** A buffer a burst grew beyond this is dropped after its write rather than kept. */
const KEEP_AT_MOST = 1024 * 1024;

export class LineBuffer {
  private filling = Buffer.allocUnsafe(INITIAL_BYTES);
  private spare = Buffer.allocUnsafe(INITIAL_BYTES);
  private used = 0;

  get empty(): boolean {
    return this.used === 0;
  }

  append(line: string): void {
    // A UTF-16 unit takes at most 3 bytes in UTF-8.
    const most = 3 * line.length;
    if (this.filling.length - this.used < most) this.grow(most);
    this.used += this.filling.write(line, this.used);
  }

  /**
   * The bytes appended so far, which stay valid until the next `take()`: call it again
   * only once they are written.
   */
  take(): Buffer {
    const full = this.filling;
    const bytes = this.used;
    this.filling = this.spare.length > KEEP_AT_MOST ? Buffer.allocUnsafe(INITIAL_BYTES) : this.spare;
    this.spare = full;
    this.used = 0;
    return full.subarray(0, bytes);
  }

  private grow(needed: number): void {
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.filling.length, this.used + needed));
    this.filling.copy(bigger, 0, 0, this.used);
    this.filling = bigger;
  }
}
