/**
 * A hash tag for every Redis Cluster slot: `{<tag>}` puts a key in that slot. A script may only touch keys of one
 * slot, so an index that the account scripts write in the same step as the change (the relay's index of unrelayed
 * outboxes) is one key per slot, named by the slot's tag; a reader walks the SLOTS keys, whatever the accounts.
 */
import calculateSlot from 'cluster-key-slot';

export const SLOTS = 16_384;

let tags: string[] | undefined;

/** The shortest base-36 counter that lands in each slot (built once, in a few ms: about 170k slot hashes). */
function slotTags(): string[] {
  if (tags) return tags;
  const found = new Array<string>(SLOTS);
  let left = SLOTS;
  for (let i = 0; left > 0; i++) {
    const tag = i.toString(36);
    const slot = calculateSlot(tag);
    if (found[slot] === undefined) {
      found[slot] = tag;
      left--;
    }
  }
  tags = found;
  return found;
}

/** The hash slot of a key. */
export const slotOf = (key: string): number => calculateSlot(key);

/** A tag whose keys share the slot of `key`. */
export const tagOfSlotOf = (key: string): string => slotTags()[slotOf(key)];

/** The tag of a slot. */
export const tagOfSlot = (slot: number): string => slotTags()[slot];
