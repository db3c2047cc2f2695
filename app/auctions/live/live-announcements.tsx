import { useEffect, useMemo, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { type TimeTexts, timeText } from "~/platform/zoned-time";
import type { AuctionView } from "../auction-views.server";
import { type Announcement, createAnnouncer, type Position, passedMilestone, type Snapshot } from "./announcements";

// The page side of spoken updates (issue 32): two visually hidden live regions (polite, and
// assertive for a lost lead) that only ever hold the announcer's sentences, and the control that
// turns them off and on for the user. The visible figures and the countdown are not live regions:
// a burst of bids would flood the speech queue, and a ticking clock would never stop talking.

type AnnouncedView = AuctionView & { times: TimeTexts };

/** What a party follows in a view: the price and standing of the single price, or of each lot. */
export function snapshotOf(view: AuctionView): Snapshot {
  const positions = new Map<string, Position>();
  if (view.terms.kind === "sealed") return { status: view.status, positions };
  const several = view.terms.pricedByLots && view.lots.length > 1;
  if (view.kind === "seller") {
    if (!view.termsAccepted) return { status: view.status, positions };
    for (const lot of view.terms.pricedByLots ? view.lots : view.lots.slice(0, 1)) {
      const rank = view.terms.pricedByLots ? lot.rank : view.rank;
      const leading = view.terms.pricedByLots ? lot.leading : view.leading;
      const hasBid =
        view.ownBids.some((bid) => bid.lotId === lot.id) || (!view.terms.pricedByLots && view.ownBidCount > 0);
      positions.set(String(lot.id), {
        label: several ? `Lot ${lot.position}` : null,
        lowestCents: view.terms.pricedByLots ? lot.lowestCents : view.lowestCents,
        standing:
          rank !== undefined ? (rank === null ? "none" : { rank }) : leading ? "leading" : hasBid ? "behind" : "none",
        endsAt: view.terms.pricedByLots ? lot.endsAt : view.terms.endsAt,
        status: view.terms.pricedByLots ? lot.status : view.status,
      });
    }
    return { status: view.status, positions };
  }
  if (view.terms.pricedByLots) {
    for (const lot of view.lots) {
      const leader = view.bids.find((bid) => bid.id === lot.lowestBidId);
      positions.set(String(lot.id), {
        label: several ? `Lot ${lot.position}` : null,
        lowestCents: lot.lowestCents,
        leaderName: leader?.organizationName ?? null,
        endsAt: lot.endsAt,
        status: lot.status,
      });
    }
    return { status: view.status, positions };
  }
  const lot = view.lots[0];
  positions.set(String(lot?.id ?? 0), {
    label: null,
    lowestCents: view.lowest?.amountCents ?? null,
    leaderName: view.lowest?.organizationName ?? null,
    endsAt: view.terms.endsAt,
    status: view.status,
  });
  return { status: view.status, positions };
}

type Spoken = { text: string; count: number };

/**
 * Announces the changes between the views the page shows, and the time milestones of what is open.
 * `enabled` false: nothing is said (the user turned announcements off).
 */
export function useLiveAnnouncements(view: AnnouncedView, enabled: boolean) {
  const [polite, setPolite] = useState<Spoken>({ text: "", count: 0 });
  const [assertive, setAssertive] = useState<Spoken>({ text: "", count: 0 });
  const enabledRef = useRef(enabled);
  enabledRef.current = enabled;
  const timesRef = useRef(view.times);
  timesRef.current = view.times;
  const announcerRef = useRef<ReturnType<typeof createAnnouncer> | null>(null);

  useEffect(() => {
    const say = ({ text, urgent }: Announcement) => {
      if (!enabledRef.current) return;
      (urgent ? setAssertive : setPolite)((spoken) => ({ text, count: spoken.count + 1 }));
    };
    const announcer = createAnnouncer({ say, timeText: (instant) => timeText(timesRef.current, instant) });
    announcerRef.current = announcer;
    return () => {
      announcer.stop();
      announcerRef.current = null;
    };
  }, []);

  // Read once per view, for its changes and for its clocks.
  const snapshot = useMemo(() => snapshotOf(view), [view]);
  useEffect(() => {
    announcerRef.current?.update(snapshot);
  }, [snapshot]);

  // The time left of each open position, ticked down from the view's clock; a milestone passed is said once.
  useEffect(() => {
    const receivedAt = performance.now();
    const serverNow = Date.parse(view.serverTime);
    const open = [...snapshot.positions.values()].filter((position) => position.status === "open");
    if (snapshot.status !== "open" || open.length === 0) return;
    const leftOf = (position: Position) => Date.parse(position.endsAt) - serverNow - (performance.now() - receivedAt);
    const previous = open.map(leftOf);
    const timer = setInterval(() => {
      open.forEach((position, index) => {
        const left = leftOf(position);
        const passed = passedMilestone(previous[index] as number, left);
        previous[index] = left;
        if (passed) announcerRef.current?.add(position.label ? `${position.label}: ${passed}` : passed);
      });
    }, 1_000);
    return () => clearInterval(timer);
  }, [snapshot, view.serverTime]);

  return { polite, assertive };
}

/**
 * The two regions, present from the first render (a region added later is not read by every screen
 * reader). Each announcement changes the one text node in place, so it is one change to read; a
 * repeated sentence differs by a trailing no-break space, which is not heard.
 */
export function LiveRegions({ polite, assertive }: { polite: Spoken; assertive: Spoken }) {
  const text = (spoken: Spoken) => (spoken.count % 2 === 0 ? spoken.text : `${spoken.text}\u00a0`);
  return (
    <>
      <div className="visually-hidden" aria-live="polite" aria-atomic="true">
        {text(polite)}
      </div>
      <div className="visually-hidden" aria-live="assertive" aria-atomic="true">
        {text(assertive)}
      </div>
    </>
  );
}

/** The toggle's one fetcher, shared by the toggle and the announcer (by key). */
const TOGGLE_FETCHER = "live-announcements";

/**
 * Whether announcements are on: the user's choice as the page was loaded, or the one they just made
 * while it is on its way (silence starts the moment they press "off", not when the server answers),
 * kept until the page's data says the same: between the answer and the page's data read again, or
 * with data read before the choice was saved, the old choice would speak one more update.
 */
export function useAnnouncementsEnabled(saved: boolean): boolean {
  const pending = useFetcher({ key: TOGGLE_FETCHER }).formData?.get("announcements");
  const sending = pending === "on" ? true : pending === "off" ? false : null;
  const [chosen, setChosen] = useState<boolean | null>(null);
  useEffect(() => {
    if (sending !== null) setChosen(sending);
  }, [sending]);
  useEffect(() => {
    if (sending === null && chosen !== null && chosen === saved) setChosen(null);
  }, [sending, chosen, saved]);
  return sending ?? chosen ?? saved;
}

/**
 * Turns spoken updates off and on for the signed-in user (kept on their account). A plain form:
 * without JavaScript it posts and comes back to the page; with it, the page stays as it is.
 */
export function AnnouncementsToggle({ enabled, returnTo }: { enabled: boolean; returnTo: string }) {
  const fetcher = useFetcher({ key: TOGGLE_FETCHER });
  const shown = useAnnouncementsEnabled(enabled);
  return (
    <fetcher.Form method="post" action="/account/live-announcements" className="button-row" preventScrollReset>
      <input type="hidden" name="announcements" value={shown ? "off" : "on"} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <span>
        {shown
          ? "Screen readers announce new lowest bids, your standing and the time left."
          : "Screen-reader announcements of bids and time are off."}
      </span>
      <button type="submit" className="button button--secondary">
        {shown ? "Turn announcements off" : "Turn announcements on"}
      </button>
    </fetcher.Form>
  );
}
