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
  noLot: "Please bid on at least one lot: an amount, or a unit price for each of its lines",
  noSuchLot: "Please bid only on the lots listed.",
} as const;

export const overReserveMessage = (reserveCents: number) =>
  `Your bid cannot be higher than the reserve price of ${formatCents(reserveCents)}`;

/** The form field of a requirement's file. */
export const requirementField = (requirementId: number) => `document_${requirementId}`;

/** A lot's field of the sealed-bid form of an auction of several lots (issue 31): `lots[0].amount`… by position. */
export const lotFieldName = (position: number, name: string) => `lots[${position - 1}].${name}`;

export const lotOverReserveMessage = (lot: string, reserveCents: number) =>
  `Your bid on ${lot} cannot be higher than its reserve price of ${formatCents(reserveCents)}`;
