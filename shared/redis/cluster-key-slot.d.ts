// cluster-key-slot (ioredis's own dependency, the hash slot of a key) ships no types: the one call we make.
declare module 'cluster-key-slot' {
  /** The Redis Cluster hash slot (0..16383) of a key, from its hash tag when it has one. */
  function calculateSlot(key: string): number;
  export default calculateSlot;
}
