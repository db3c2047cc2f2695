// What a bid commits the seller to, in the words of each page that says so. A practice auction's
// bids (issue 21) bind nobody: its pages rehearse the same steps without calling anything binding.

export type BidCommitment = {
  /** The rule, said beside a bid form, a confirmation and the seller's own bids. */
  rule: string;
  /** The one-price bid form's button. */
  placeButton: string;
  /** A lot's bid form's button, with the total as typed (JavaScript). */
  placeTotalButton: (total: string) => string;
  /** The auction page's notice once a bid is placed. */
  placed: string;
  /** A lot's page's notice once a bid is placed. */
  lotPlaced: string;
  /** The terms' row on bids. */
  termsRow: string;
  /** What accepting a reverse auction's terms agrees to. */
  acceptReverse: string;
};

const REAL: BidCommitment = {
  rule: "Bids are binding and cannot be retracted.",
  placeButton: "Place binding bid",
  placeTotalButton: (total) => `Place binding bid of ${total}`,
  placed: "Your bid has been placed. It is binding and cannot be retracted.",
  lotPlaced: "Your bid is placed. It is binding.",
  termsRow: "Binding: a bid cannot be retracted. Sellers never see each other's names or bids.",
  acceptReverse:
    "By accepting you agree that every bid you place is binding and cannot be retracted, that the best-ranked qualified bid (the lowest, unless the auction also ranks technical merit) is expected to win, and that the buyer may pass over it with a recorded reason.",
};

const PRACTICE: BidCommitment = {
  rule: "Practice bids bind nobody and cannot be retracted, as in a real auction.",
  placeButton: "Place practice bid",
  placeTotalButton: (total) => `Place practice bid of ${total}`,
  placed: "Your practice bid has been placed. It binds nobody.",
  lotPlaced: "Your practice bid is placed. It binds nobody.",
  termsRow:
    "Practice: no bid binds anyone, and the other bidders are simulated. Bids cannot be retracted, as in a real auction.",
  acceptReverse:
    "By accepting you practise by a real auction's rules: every bid stands once placed and the lowest wins. Nothing you bid here binds you.",
};

export const bidCommitment = (practice: boolean): BidCommitment => (practice ? PRACTICE : REAL);
