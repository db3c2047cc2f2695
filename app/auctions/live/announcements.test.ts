import { describe, expect, it } from "vitest";
import {
  ANNOUNCEMENT_GAP_MS,
  type Announcement,
  clockTime,
  createAnnouncer,
  describeChange,
  type Position,
  passedMilestone,
  type Snapshot,
} from "./announcements";

// What a screen-reader user hears of a live auction (issue 32), with a clock the test moves.

const END = "2026-11-27T21:00:00.000Z";
const LATER = "2026-11-27T21:03:00.000Z";
const texts: Record<string, string> = {
  [END]: "Fri, Nov 27, 2026, 2:00 p.m. MST",
  [LATER]: "Fri, Nov 27, 2026, 2:03 p.m. MST",
};
const timeText = (instant: string) => texts[instant] ?? instant;

const seller = (lowestCents: number | null, standing: Position["standing"], endsAt = END): Snapshot => ({
  status: "open",
  positions: new Map([["1", { label: null, lowestCents, standing, endsAt, status: "open" }]]),
});

function fakeClock() {
  let now = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let next = 1;
  return {
    clock: {
      now: () => now,
      setTimer: (run: () => void, ms: number) => {
        const id = next++;
        timers.push({ at: now + ms, run, id });
        return id;
      },
      clearTimer: (id: unknown) => {
        timers = timers.filter((timer) => timer.id !== id);
      },
    },
    /** Moves the clock to `to`, running each timer due on the way, in order. */
    advance(to: number) {
      for (;;) {
        const due = timers.filter((timer) => timer.at <= to).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((timer) => timer !== due);
        now = due.at;
        due.run();
      }
      now = to;
    },
  };
}

describe("describeChange", () => {
  it("says the new lowest price and that the seller lost the lead, urgently", () => {
    expect(describeChange(seller(900_000, "leading"), seller(870_000, "behind"), timeText)).toEqual({
      text: "Lowest bid now $8,700.00. You no longer have the lowest bid.",
      urgent: true,
    });
  });

  it("says the standing with every price, so each announcement is whole", () => {
    expect(describeChange(seller(870_000, "behind"), seller(860_000, "behind"), timeText)).toEqual({
      text: "Lowest bid now $8,600.00. You do not have the lowest bid.",
      urgent: false,
    });
    expect(describeChange(seller(860_000, "behind"), seller(850_000, "leading"), timeText)?.text).toBe(
      "Lowest bid now $8,500.00. You have the lowest bid.",
    );
    expect(describeChange(seller(null, "none"), seller(850_000, "none"), timeText)?.text).toBe(
      "Lowest bid now $8,500.00.",
    );
  });

  it("says nothing when nothing a party follows changed", () => {
    expect(describeChange(seller(850_000, "leading"), seller(850_000, "leading"), timeText)).toBeNull();
  });

  it("says a seller's place in ranks only, never a price", () => {
    const ranked = (rank: number): Snapshot => ({
      status: "open",
      positions: new Map([["1", { label: null, lowestCents: null, standing: { rank }, endsAt: END, status: "open" }]]),
    });
    expect(describeChange(ranked(1), ranked(2), timeText)).toEqual({
      text: "You no longer have the lowest bid. You are 2nd.",
      urgent: true,
    });
    expect(describeChange(ranked(3), ranked(2), timeText)?.text).toBe("You are 2nd.");
    expect(describeChange(ranked(2), ranked(1), timeText)?.text).toBe("You have the lowest bid.");
  });

  it("tells the buyer's side who bid, lot by lot on an auction of several", () => {
    const owner = (lowestCents: number, leaderName: string, label: string | null = null): Snapshot => ({
      status: "open",
      positions: new Map([["7", { label, lowestCents, leaderName, endsAt: END, status: "open" }]]),
    });
    expect(describeChange(owner(900_000, "Acme"), owner(870_000, "Borealis"), timeText)?.text).toBe(
      "New lowest bid $8,700.00 from Borealis.",
    );
    expect(describeChange(owner(900_000, "Acme", "Lot 2"), owner(870_000, "Borealis", "Lot 2"), timeText)?.text).toBe(
      "Lot 2: New lowest bid $8,700.00 from Borealis.",
    );
  });

  it("says when the end moves, by the clock time", () => {
    expect(describeChange(seller(850_000, "leading"), seller(850_000, "leading", LATER), timeText)?.text).toBe(
      "Bidding extended to 2:03 p.m. MST.",
    );
    expect(clockTime("Fri, Nov 27, 2026, 2:03 p.m. MST")).toBe("2:03 p.m. MST");
  });

  it("says when bidding closes", () => {
    const closed = { ...seller(850_000, "leading"), status: "closed" };
    expect(describeChange(seller(850_000, "leading"), closed, timeText)?.text).toBe("Bidding has closed.");
  });
});

describe("passedMilestone", () => {
  it("names the milestone passed, once, and none at the end or away from one", () => {
    expect(passedMilestone(600_500, 599_500)).toBe("10 minutes left.");
    expect(passedMilestone(300_100, 299_900)).toBe("5 minutes left.");
    expect(passedMilestone(60_400, 59_400)).toBe("1 minute left.");
    expect(passedMilestone(30_900, 29_900)).toBe("30 seconds left.");
    expect(passedMilestone(59_400, 58_400)).toBeNull();
    expect(passedMilestone(1_000, 0)).toBeNull();
    // A view that arrives late skips two: the nearest to the end is said.
    expect(passedMilestone(70_000, 25_000)).toBe("30 seconds left.");
  });
});

describe("the announcer", () => {
  it("coalesces a burst of 20 bids in 10 seconds into at most 5, the last with the final price and standing", () => {
    const { clock, advance } = fakeClock();
    const said: (Announcement & { at: number })[] = [];
    const announcer = createAnnouncer({ say: (a) => said.push({ ...a, at: clock.now() }), timeText, clock });
    announcer.update(seller(1_000_000, "leading"));
    let lowest = 1_000_000;
    for (let bid = 0; bid < 20; bid += 1) {
      advance(bid * 500);
      lowest -= 10_000;
      announcer.update(seller(lowest, "behind"));
    }
    advance(60_000);
    expect(said.length).toBeLessThanOrEqual(5);
    expect(said[0]).toMatchObject({
      at: 0,
      urgent: true,
      text: "Lowest bid now $9,900.00. You no longer have the lowest bid.",
    });
    expect(said.at(-1)?.text).toBe("Lowest bid now $8,000.00. You do not have the lowest bid.");
    for (let index = 1; index < said.length; index += 1) {
      expect((said[index]?.at ?? 0) - (said[index - 1]?.at ?? 0)).toBeGreaterThanOrEqual(ANNOUNCEMENT_GAP_MS);
    }
  });

  it("says losing the lead at once, even right after another announcement", () => {
    const { clock, advance } = fakeClock();
    const said: (Announcement & { at: number })[] = [];
    const announcer = createAnnouncer({ say: (a) => said.push({ ...a, at: clock.now() }), timeText, clock });
    announcer.update(seller(1_000_000, "behind"));
    announcer.update(seller(990_000, "behind"));
    advance(1_000);
    announcer.update(seller(980_000, "leading"));
    advance(5_000);
    announcer.update(seller(970_000, "behind"));
    expect(said.map((a) => [a.at, a.urgent, a.text])).toEqual([
      [0, false, "Lowest bid now $9,900.00. You do not have the lowest bid."],
      [4_000, false, "Lowest bid now $9,800.00. You have the lowest bid."],
      [5_000, true, "Lowest bid now $9,700.00. You no longer have the lowest bid."],
    ]);
  });

  it("adds a milestone to what is said, and says nothing when nothing changed", () => {
    const { clock, advance } = fakeClock();
    const said: string[] = [];
    const announcer = createAnnouncer({ say: (a) => said.push(a.text), timeText, clock });
    announcer.update(seller(1_000_000, "leading"));
    announcer.update(seller(1_000_000, "leading"));
    expect(said).toEqual([]);
    announcer.add("1 minute left.");
    advance(10_000);
    expect(said).toEqual(["1 minute left."]);
  });
});
