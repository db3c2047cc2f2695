// A practice auction's fixed terms (issue 21), shown on /auctions/practice and used to make one.

import { lotTotalCents } from "../lots/line-pricing";

export const PRACTICE_MINUTES = 10;
export const PRACTICE_RESERVE_CENTS = 1_000_000;
export const PRACTICE_DECREMENT_CENTS = 10_000;
/** The simulated proxy bidder's secret minimum: the price the seller must beat to lead for good. */
export const PRACTICE_FLOOR_CENTS = 800_000;

// A practice rate sheet (issue 31): the same simulation, lot by lot, on the way oilfield services are
// bought. Each line's rates: the reserve's (the lot's reserve is their total, so the reserve and the
// lines agree) and competitor B's opening ones (their total is one decrement under the reserve).

/** What a practice auction prices: one amount, or a rate sheet in lots. */
export const PRACTICE_KINDS = ["one-price", "lots"] as const;
export type PracticeKind = (typeof PRACTICE_KINDS)[number];

/** Minutes between one practice lot's close and the next's (the auction's lot close gap). */
export const PRACTICE_LOT_GAP_MINUTES = 3;

export type PracticeLine = {
  description: string;
  unit: string;
  /** Thousandths of a unit (decision 027). */
  quantity: number;
  ceilingCents: number | null;
  /** The unit price the lot's reserve is made of. */
  reserveUnitCents: number;
  /** Competitor B's opening unit price. */
  openingUnitCents: number;
};

export type PracticeLot = { title: string; decrementCents: number; lines: PracticeLine[] };

export const PRACTICE_LOTS: readonly PracticeLot[] = [
  {
    title: "Hauling",
    decrementCents: 50_000,
    lines: [
      {
        description: "Tandem gravel truck with driver",
        unit: "hour",
        quantity: 120_000,
        ceilingCents: null,
        reserveUnitCents: 14_500,
        openingUnitCents: 14_300,
      },
      {
        description: "Loaded haul distance",
        unit: "km",
        quantity: 2_400_000,
        ceilingCents: null,
        reserveUnitCents: 325,
        openingUnitCents: 320,
      },
      {
        description: "Disposal of drilling fluids",
        unit: "m³",
        quantity: 350_000,
        ceilingCents: 4_500,
        reserveUnitCents: 4_200,
        openingUnitCents: 4_160,
      },
    ],
  },
  {
    title: "Rig move",
    decrementCents: 25_000,
    lines: [
      {
        description: "Bed trucks with crew",
        unit: "hour",
        quantity: 40_000,
        ceilingCents: null,
        reserveUnitCents: 39_500,
        openingUnitCents: 38_950,
      },
      {
        description: "Pilot car escort",
        unit: "km",
        quantity: 300_000,
        ceilingCents: null,
        reserveUnitCents: 280,
        openingUnitCents: 270,
      },
    ],
  },
];

/** Competitor C's secret minimum on a lot: 80 % of its reserve, to the cent. */
export const practiceLotFloorCents = (reserveCents: number) => Math.round(reserveCents * 0.8);

/** A practice lot's reserve: its lines' total at the reserve's unit prices (decision 027's rounding). */
export const practiceLotReserveCents = (lot: PracticeLot) =>
  lotTotalCents(
    lot.lines,
    lot.lines.map((line) => line.reserveUnitCents),
  );

/** Competitor B's opening total on a lot: its opening unit prices' total. */
export const practiceLotOpeningCents = (lot: PracticeLot) =>
  lotTotalCents(
    lot.lines,
    lot.lines.map((line) => line.openingUnitCents),
  );
