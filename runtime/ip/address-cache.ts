// Parsed client addresses, remembered. A server hears the same clients again and again
// (keep-alive, repeat visitors), and parsing an IPv6 address costs several times a
// lookup here; the cache is bounded, so a flood of new addresses only makes it restart.
import { parseIp, type Family } from './address.ts';

const CAPACITY = 4096;

export class AddressCache {
  private readonly slots = new Map<string, number>();
  private readonly families = new Uint8Array(CAPACITY);
  private readonly words: Uint32Array[] = [];

  /** Parses `text` (or recalls it) and returns the slot whose `family`/`address` hold the result. */
  slot(text: string): number {
    let slot = this.slots.get(text);
    if (slot === undefined) {
      if (this.slots.size === CAPACITY) this.slots.clear();
      slot = this.slots.size;
      this.words[slot] ??= new Uint32Array(4);
      this.families[slot] = parseIp(text, this.words[slot], true);
      this.slots.set(text, slot);
    }
    return slot;
  }

  family(slot: number): Family {
    return this.families[slot] as Family;
  }

  address(slot: number): Uint32Array {
    return this.words[slot]!;
  }
}
