// An indented line buffer for the generated dispatcher, so that nested switch and if
// blocks come out indented the way a person would write them.
export class CodeWriter {
  private readonly lines: string[] = [];
  private depth: number;

  constructor(depth = 0) {
    this.depth = depth;
  }

  line(text: string): void {
    this.lines.push(`${'  '.repeat(this.depth)}${text}`);
  }

  /** `open`, then `body` one level deeper, then `close`. */
  block(open: string, body: () => void, close = '}'): void {
    this.line(open);
    this.indented(body);
    this.line(close);
  }

  indented(body: () => void): void {
    this.depth++;
    body();
    this.depth--;
  }

  toString(): string {
    return this.lines.join('\n');
  }
}
