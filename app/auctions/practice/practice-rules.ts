// A practice auction's fixed terms (issue 21), shown on /auctions/practice and used to make one.

export const PRACTICE_MINUTES = 10;
export const PRACTICE_RESERVE_CENTS = 1_000_000;
export const PRACTICE_DECREMENT_CENTS = 10_000;
/** The simulated proxy bidder's secret minimum: the price the seller must beat to lead for good. */
export const PRACTICE_FLOOR_CENTS = 800_000;
