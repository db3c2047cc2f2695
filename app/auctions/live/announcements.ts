import { formatCents } from "~/shared/money";
import { counted, ordinal } from "~/shared/words";

// What a screen-reader user hears of a live auction (issue 32): one short sentence when the lowest
// price or their standing changes, the time at 10, 5 and 1 minutes and 30 seconds left, and an
// extension. Bursts are coalesced: at most one announcement per gap, always from the latest view,
// so the last one states the final price and standing. Losing the lead goes first (assertive).
// Pure: the views' figures in, sentences out; `use-live-announcements.ts` wires it to the page.

/** One thing a party follows: the auction's single price, or one lot of several. */
export type Position = {
  /** "Lot 2" on an auction of several lots; null on a single price. */
  label: string | null;
  lowestCents: number | null;
  /** The buyer's side: who holds the lowest bid, when known. */
  leaderName?: string | null;
  /** A seller's standing: leading, behind, no bid yet, or (ranks only) their place. */
  standing?: "leading" | "behind" | "none" | { rank: number };
  /** When it closes (ISO 8601), as the server last said. */
  endsAt: string;
  status: string;
};

export type Snapshot = {
  status: string;
  /** By key (the lot's id). */
  positions: Map<string, Position>;
};

export type Announcement = { text: string; urgent: boolean };

const STATUS_SENTENCES: Record<string, string> = {
  open: "Bidding is open.",
  closed: "Bidding has closed.",
  cancelled: "The auction has been cancelled.",
  awarded: "The auction has been awarded.",
};

const leads = (standing: Position["standing"]) =>
  standing === "leading" || (typeof standing === "object" && standing.rank === 1);

function standingSentence(before: Position["standing"], now: Position["standing"]): string {
  if (now === undefined || now === "none") return "";
  if (leads(now)) return "You have the lowest bid.";
  const place = typeof now === "object" ? ` You are ${ordinal(now.rank)}.` : "";
  if (leads(before)) return `You no longer have the lowest bid.${place}`;
  return typeof now === "object" ? `You are ${ordinal(now.rank)}.` : "You do not have the lowest bid.";
}

const sameStanding = (a: Position["standing"], b: Position["standing"]) =>
  typeof a === "object" && typeof b === "object" ? a.rank === b.rank : a === b;

/** "2:03 p.m. MST" out of the server's "Fri, Nov 27, 2026, 2:03 p.m. MST": the clock time is what is heard. */
export function clockTime(text: string): string {
  const parts = text.split(", ");
  return parts[parts.length - 1] ?? text;
}

/**
 * What changed from what was last said to now, in sentences; null when nothing worth saying did.
 * Price and standing are said together whenever either changed, so each announcement is whole.
 */
export function describeChange(
  said: Snapshot,
  now: Snapshot,
  timeText: (instant: string) => string,
): Announcement | null {
  const sentences: string[] = [];
  let urgent = false;
  if (now.status !== said.status && STATUS_SENTENCES[now.status]) {
    sentences.push(STATUS_SENTENCES[now.status] as string);
  }
  for (const [key, position] of now.positions) {
    const before = said.positions.get(key);
    const prefix = position.label ? `${position.label}: ` : "";
    const priceMoved = before?.lowestCents !== position.lowestCents || before?.leaderName !== position.leaderName;
    const standingMoved = !sameStanding(before?.standing, position.standing);
    if (priceMoved || standingMoved) {
      const price =
        position.lowestCents === null
          ? ""
          : position.standing === undefined
            ? `New lowest bid ${formatCents(position.lowestCents)}${position.leaderName ? ` from ${position.leaderName}` : ""}.`
            : `Lowest bid now ${formatCents(position.lowestCents)}.`;
      const standing = standingSentence(before?.standing, position.standing);
      const words = [price, standing].filter(Boolean).join(" ");
      if (words) sentences.push(`${prefix}${words}`);
      if (leads(before?.standing) && !leads(position.standing)) urgent = true;
    }
    if (
      before &&
      position.status === "open" &&
      Date.parse(position.endsAt) > Date.parse(before.endsAt) &&
      Date.parse(before.endsAt) > 0
    ) {
      sentences.push(
        `${position.label ? `${position.label}: b` : "B"}idding extended to ${clockTime(timeText(position.endsAt))}.`,
      );
    }
  }
  return sentences.length > 0 ? { text: sentences.join(" "), urgent } : null;
}

/** The moments announced before the end, longest first. */
export const MILESTONES = [
  { ms: 600_000, text: `${counted(10, "minute", "minutes")} left.` },
  { ms: 300_000, text: `${counted(5, "minute", "minutes")} left.` },
  { ms: 60_000, text: `${counted(1, "minute", "minutes")} left.` },
  { ms: 30_000, text: `${counted(30, "second", "seconds")} left.` },
] as const;

/** The milestone passed going from `beforeMs` to `nowMs` left (the nearest to the end when several were), or null. */
export function passedMilestone(beforeMs: number, nowMs: number): string | null {
  let passed: string | null = null;
  for (const milestone of MILESTONES) {
    if (beforeMs > milestone.ms && nowMs <= milestone.ms && nowMs > 0) passed = milestone.text;
  }
  return passed;
}

/** At most one announcement per this gap during a burst. */
export const ANNOUNCEMENT_GAP_MS = 4_000;

export type AnnouncerClock = {
  now(): number;
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
};

const realClock: AnnouncerClock = {
  now: () => Date.now(),
  setTimer: (run, ms) => setTimeout(run, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/**
 * Coalesces changes into announcements: the first after a quiet gap is said at once, the rest wait
 * for the gap to pass and are then said as one, from the latest snapshot against the last one said.
 * Losing the lead is said at once (urgent) unless an urgent one was said within the gap.
 */
export function createAnnouncer(options: {
  say: (announcement: Announcement) => void;
  timeText: (instant: string) => string;
  gapMs?: number;
  clock?: AnnouncerClock;
}) {
  const gapMs = options.gapMs ?? ANNOUNCEMENT_GAP_MS;
  const clock = options.clock ?? realClock;
  let said: Snapshot | null = null;
  let latest: Snapshot | null = null;
  let extras: string[] = [];
  let lastAt = Number.NEGATIVE_INFINITY;
  let lastUrgentAt = Number.NEGATIVE_INFINITY;
  let timer: unknown = null;

  const pending = (): Announcement | null => {
    const change = said && latest ? describeChange(said, latest, options.timeText) : null;
    const text = [change?.text, ...extras].filter(Boolean).join(" ");
    return text ? { text, urgent: change?.urgent ?? false } : null;
  };

  const flush = () => {
    if (timer !== null) clock.clearTimer(timer);
    timer = null;
    const announcement = pending();
    said = latest;
    extras = [];
    if (!announcement) return;
    const at = clock.now();
    lastAt = at;
    if (announcement.urgent) lastUrgentAt = at;
    options.say(announcement);
  };

  const consider = () => {
    const announcement = pending();
    if (!announcement) return;
    const at = clock.now();
    if (at - lastAt >= gapMs || (announcement.urgent && at - lastUrgentAt >= gapMs)) {
      flush();
    } else if (timer === null) {
      timer = clock.setTimer(flush, lastAt + gapMs - at);
    }
  };

  return {
    /** Each view as it arrives; the first is only remembered (the page already shows it). */
    update(snapshot: Snapshot) {
      if (said === null) {
        said = latest = snapshot;
        return;
      }
      latest = snapshot;
      consider();
    },
    /** A sentence of its own (a time milestone), said with the next announcement. */
    add(text: string) {
      extras.push(text);
      consider();
    },
    stop() {
      if (timer !== null) clock.clearTimer(timer);
      timer = null;
    },
  };
}
