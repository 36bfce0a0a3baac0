/** Hands out names that are unique within one document: `User`, then `User_2`, `User_3`… */
export class UniqueNames {
  private readonly taken = new Set<string>();

  claim(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.taken.has(name); n++) name = `${wanted}_${n}`;
    this.taken.add(name);
    return name;
  }
}
