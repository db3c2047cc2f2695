// Which machine takes the requests about one thing (an auction's bids, decision 028): the highest
// score of hash(machine, key), "rendezvous hashing". Every machine that knows the same machines picks
// the same one, and when one leaves, only the keys it held move (each to its own next best).

/** FNV-1a, 32 bits: fast and well spread for short strings; nothing here needs to be secret. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  // A final mix, so that keys differing in their last characters still spread over machines.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}

/** The machine that owns `key` among `machines` (undefined when there are none). */
export function ownerOf<M extends { id: string }>(key: string, machines: readonly M[]): M | undefined {
  let best: M | undefined;
  let bestScore = -1;
  for (const machine of machines) {
    const score = fnv1a(`${machine.id}\u0000${key}`);
    if (score > bestScore || (score === bestScore && best && machine.id < best.id)) {
      best = machine;
      bestScore = score;
    }
  }
  return best;
}
