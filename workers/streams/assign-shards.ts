/** Spreads symbols over connections of bounded size, moving as few as possible. Pure. */

/**
 * Keeps every symbol that stays in the shard it was in, drops the ones that left, fills free
 * places with the new ones in order, and opens more shards when all are full. Empty shards at the
 * end are dropped, but `minShards` are always kept.
 */
export function assignShards(
  current: readonly (readonly string[])[],
  symbols: readonly string[],
  perShard: number,
  minShards = 0,
): string[][] {
  if (!Number.isInteger(perShard) || perShard < 1) throw new RangeError('perShard must be a positive integer');
  const wanted = new Set(symbols);
  const shards = current.map((shard) => shard.filter((s) => wanted.has(s)));
  const placed = new Set(shards.flat());
  let index = 0;
  for (const symbol of wanted) {
    if (placed.has(symbol)) continue;
    while (index < shards.length && shards[index].length >= perShard) index++;
    if (index === shards.length) shards.push([]);
    shards[index].push(symbol);
    placed.add(symbol);
  }
  while (shards.length > minShards && shards[shards.length - 1].length === 0) shards.pop();
  while (shards.length < minShards) shards.push([]);
  return shards;
}
