// Parsed client addresses, remembered. A server hears the same clients again and again
// (keep-alive, repeat visitors), and parsing an IPv6 address costs several times a
// lookup here; the cache is bounded, so a flood of new addresses only makes it restart.
// One cache serves both the client address (its IPv4-mapped folding, trusted proxies)
// and the IP filter, so each address text is parsed once for both.
import { IPV4, IPV6, parseIp, type Family } from './address.ts';
import { dotted, ipv6Text } from './address-text.ts';

const CAPACITY = 4096;

export class AddressCache {
  private readonly slots = new Map<string, number>();
  private used = 0;
  private readonly families = new Uint8Array(CAPACITY);
  private readonly words: Uint32Array[] = [];
  private readonly shown: string[] = [];

  /**
   * Parses `text` (or recalls it) and returns the slot whose `family`/`address`/`text` hold
   * the result. `canonical`: the text is known to be written as `text()` would write it
   * (node's socket addresses, bar IPv4-mapped ones), and is not written again.
   */
  slot(text: string, canonical = false): number {
    let slot = this.slots.get(text);
    if (slot === undefined) {
      if (this.used === CAPACITY) {
        this.slots.clear();
        this.used = 0;
      }
      slot = this.used++;
      const words = (this.words[slot] ??= new Uint32Array(4));
      const family = parseIp(text, words, true);
      this.families[slot] = family;
      const shown = shownText(text, family, words, canonical);
      this.shown[slot] = shown;
      this.slots.set(text, slot);
      if (shown !== text) this.slots.set(shown, slot);
    }
    return slot;
  }

  family(slot: number): Family {
    return this.families[slot] as Family;
  }

  address(slot: number): Uint32Array {
    return this.words[slot]!;
  }

  /**
   * The address as the application sees it: `::ffff:10.0.0.5` as `10.0.0.5`, IPv6 in its
   * RFC 5952 form (`0:0::1` as `::1`, a zone kept), what does not parse as given.
   */
  text(slot: number): string {
    return this.shown[slot]!;
  }
}

/** A dotted quad that parses is in its one form already (address.ts refuses leading zeros). */
function shownText(text: string, family: Family, words: Uint32Array, canonical: boolean): string {
  // SPEC §5: an IPv4-mapped IPv6 client is its IPv4 form, and is looked up as that too.
  if (family === IPV4) return text.includes(':') ? dotted(words[0]!) : text;
  if (family !== IPV6 || canonical) return text;
  const zone = text.indexOf('%');
  return zone < 0 ? ipv6Text(words) : ipv6Text(words) + text.slice(zone);
}
