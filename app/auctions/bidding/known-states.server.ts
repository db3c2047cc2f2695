import type { Database } from "~db/database.server";
import type { Round } from "./bid-round.server";
import type { Read } from "./bidding-read.server";

// The auction state this process keeps between rounds (decision 005), so that a round on a busy
// auction is one round trip: the write's guard vouches for it.

/** A map per database handle (each handle is a machine's connection to one database). */
export function perDatabase<Key, Value>(maps: WeakMap<Database, Map<Key, Value>>, db: Database): Map<Key, Value> {
  let map = maps.get(db);
  if (!map) {
    map = new Map();
    maps.set(db, map);
  }
  return map;
}

/** Which lot a request is on: the lot named, or (none named) the auction's first. */
export const lotKey = (request: { auctionId: number; lotId?: number }) =>
  `${request.auctionId}/${request.lotId ?? "first"}`;

/**
 * Per database handle, by lot (`lotKey`): the state of open auctions' lots as this process last read or wrote it. A round
 * decides on it without reading again; the write's guard (sequence, status, end) still makes sure
 * nothing changed meanwhile, and when something did (another machine's bid, a cancellation, the
 * close) the round reads afresh. Only open auctions are kept: their terms can no longer change, and
 * the only other facts used, sellers having accepted the terms, are kept only once true.
 */
const knownStates = new WeakMap<Database, Map<string, Read>>();
const KNOWN_STATES_KEPT = 1_000;
export const knownStatesOf = (db: Database) => perDatabase(knownStates, db);

/** The sellers known to have accepted the terms (a fact that never turns false). */
export const acceptedOnly = (termsAccepted: Record<string, boolean> | null | undefined) =>
  Object.fromEntries(Object.entries(termsAccepted ?? {}).filter(([, accepted]) => accepted));

/** Keeps an open auction's lot's state (under `key`), with every seller known to have accepted its terms. */
export function remember(db: Database, key: string, read: Read, alsoAccepted: Record<string, boolean>) {
  if (read.auction.status !== "open") return;
  const known = knownStatesOf(db);
  known.delete(key);
  if (known.size >= KNOWN_STATES_KEPT) known.delete(known.keys().next().value as string);
  known.set(key, { ...read, termsAccepted: { ...alsoAccepted, ...acceptedOnly(read.termsAccepted) } });
}

/** The state a round leaves: the lot and the auction moved on by its changes. */
export function stateAfter(round: Round): Read {
  const { read, changes } = round;
  const extended = round.lot.extensions - read.lot.extensions;
  return {
    ...read,
    auction: {
      ...round.auction,
      sequence: read.auction.sequence + changes.length,
      status: read.auction.status === "scheduled" ? "open" : read.auction.status,
      endsAt: round.lot.endsAt > read.auction.endsAt ? round.lot.endsAt : read.auction.endsAt,
      extensions: read.auction.extensions + extended,
    },
    lot: round.lot,
    latestUnits: round.sheet
      ? Object.fromEntries([...round.sheet.latestUnits].map(([seller, units]) => [seller, [...units]]))
      : read.latestUnits,
    lowest: round.state.lowest,
    // Ranks only: every seller's own lowest, which each bid is measured against, moved on too.
    ownLowest: round.state.ranksOnly ? Object.fromEntries(round.state.ownLowest) : null,
  };
}
