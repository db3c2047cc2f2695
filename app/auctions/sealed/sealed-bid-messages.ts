import { formatCents } from "~/shared/money";
import { unitPricesMissingMessage } from "../auction-words";

// What the sealed-bid form says when it refuses a bid (shared by the server and the pages).

export const SEALED_MESSAGES = {
  amountMissing: "Please enter your bid",
  amountFormat: "Please enter an amount in dollars and cents, like 12500.00",
  notOpen: "Bids are accepted only between the start and the submission deadline.",
  termsFirst: "Please accept the terms of this auction before you bid.",
  documentMissing: (name: string) => `Please attach the ${name}`,
  pricesMissing: unitPricesMissingMessage,
} as const;

export const overReserveMessage = (reserveCents: number) =>
  `Your bid cannot be higher than the reserve price of ${formatCents(reserveCents)}`;

/** The form field of a requirement's file. */
export const requirementField = (requirementId: number) => `document_${requirementId}`;
