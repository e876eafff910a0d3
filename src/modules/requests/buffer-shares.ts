/**
 * What each organisation holds of the request log's buffer, so that under pressure what is dropped is the entries of
 * the organisations that hold more than their share (docs/api.md, "The request log"). An organisation's fair share
 * is the buffer's capacity, in rows and in bytes of bodies, divided by the organisations holding entries (counting
 * the one that asks). A map lookup per entry recorded and per entry written.
 */
export interface BufferShares {
  add(org: string, bytes: number): void;
  remove(org: string, bytes: number): void;
  /** Organisations holding entries, with `org` counted if it holds none. */
  activeWith(org: string): number;
  /** Whether `org`, with one more entry of `bytes`, stays within its share when `active` organisations hold some. */
  within(org: string, bytes: number, active: number): boolean;
  /** Whether `org` holds more than its share when `active` organisations hold some. */
  over(org: string, active: number): boolean;
}

export function bufferShares(capacity: number, byteCapacity: number): BufferShares {
  const held = new Map<string, { rows: number; bytes: number }>();
  return {
    add(org, bytes) {
      const mine = held.get(org);
      if (mine === undefined) held.set(org, { rows: 1, bytes });
      else {
        mine.rows++;
        mine.bytes += bytes;
      }
    },
    remove(org, bytes) {
      const mine = held.get(org);
      if (mine === undefined) return;
      mine.rows--;
      mine.bytes -= bytes;
      if (mine.rows <= 0) held.delete(org);
    },
    activeWith: (org) => held.size + (held.has(org) ? 0 : 1),
    within(org, bytes, active) {
      const mine = held.get(org) ?? { rows: 0, bytes: 0 };
      return (mine.rows + 1) * active <= capacity && (mine.bytes + bytes) * active <= byteCapacity;
    },
    over(org, active) {
      const mine = held.get(org);
      return mine !== undefined && (mine.rows * active > capacity || mine.bytes * active > byteCapacity);
    },
  };
}
