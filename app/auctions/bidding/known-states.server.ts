import type { Database } from "~db/database.server";
import type { Round } from "./bid-round.server";
import type { Read } from "./bidding-read.server";

// The auction state this process keeps between rounds (decision 005), so that a round on a busy
// auction is one round trip: the write's guard vouches for it.

/** A map per database handle (each handle is a machine's connection to one database). */
export function perDatabase<Value>(maps: WeakMap<Database, Map<number, Value>>, db: Database): Map<number, Value> {
  let map = maps.get(db);
  if (!map) {
    map = new Map();
    maps.set(db, map);
  }
  return map;
}

/**
 * Per database handle: the state of open auctions as this process last read or wrote it. A round
 * decides on it without reading again; the write's guard (sequence, status, end) still makes sure
 * nothing changed meanwhile, and when something did (another machine's bid, a cancellation, the
 * close) the round reads afresh. Only open auctions are kept: their terms can no longer change, and
 * the only other facts used, sellers having accepted the terms, are kept only once true.
 */
const knownStates = new WeakMap<Database, Map<number, Read>>();
const KNOWN_STATES_KEPT = 1_000;
export const knownStatesOf = (db: Database) => perDatabase(knownStates, db);

/** The sellers known to have accepted the terms (a fact that never turns false). */
export const acceptedOnly = (termsAccepted: Record<string, boolean> | null | undefined) =>
  Object.fromEntries(Object.entries(termsAccepted ?? {}).filter(([, accepted]) => accepted));

/** Keeps an open auction's state, with every seller known to have accepted its terms. */
export function remember(db: Database, read: Read, alsoAccepted: Record<string, boolean>) {
  if (read.auction.status !== "open") return;
  const known = knownStatesOf(db);
  known.delete(read.auction.id);
  if (known.size >= KNOWN_STATES_KEPT) known.delete(known.keys().next().value as number);
  known.set(read.auction.id, { ...read, termsAccepted: { ...alsoAccepted, ...acceptedOnly(read.termsAccepted) } });
}

/** The state a round leaves: the auction moved on by its changes. */
export function stateAfter(round: Round): Read {
  const { read, changes } = round;
  return {
    ...read,
    auction: {
      ...round.auction,
      sequence: read.auction.sequence + changes.length,
      status: read.auction.status === "scheduled" ? "open" : read.auction.status,
    },
    lowest: round.state.lowest,
    ownLowest: null,
  };
}
