/** Hands out names that are unique within one document: `User`, then `User_2`, `User_3`… */
export class UniqueNames {
  private readonly taken = new Set<string>();
  /**
   * The suffix to try next for each name wanted twice or more. Every suffix below it is
   * taken for good, so the thousandth `index` does not try the 999 before it again.
   */
  private readonly nextSuffix = new Map<string, number>();

  claim(wanted: string): string {
    let name = wanted;
    if (this.taken.has(name)) {
      let n = this.nextSuffix.get(wanted) ?? 2;
      while (this.taken.has((name = `${wanted}_${n}`))) n++;
      this.nextSuffix.set(wanted, n + 1);
    }
    this.taken.add(name);
    return name;
  }
}
