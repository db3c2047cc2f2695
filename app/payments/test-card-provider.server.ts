import { randomBytes } from "node:crypto";
import {
  CARD_NOT_SAVED,
  CardError,
  type CardHolder,
  PaymentProviderError,
  type SavedCard,
  type TestCardFields,
  type TestCardPayments,
} from "./payments";

// The built-in provider used when Stripe is not configured: Stripe's test cards and test tokens
// behave as they do in Stripe's test mode, so the whole path (declines included) runs offline.
// Numbers are mapped to Stripe's test token names at once and never kept.

type TestCard = { token: string; brand: string; last4: string };

const DECLINES: Record<string, { code: string; message: string }> = {
  tok_chargeDeclined: { code: "card_declined", message: "Your card was declined." },
  tok_chargeDeclinedInsufficientFunds: { code: "card_declined", message: "Your card has insufficient funds." },
  tok_chargeDeclinedExpiredCard: { code: "expired_card", message: "Your card has expired." },
  tok_chargeDeclinedIncorrectCvc: { code: "incorrect_cvc", message: "Your card's security code is incorrect." },
};

const TEST_CARDS: Record<string, TestCard> = {
  "4242424242424242": { token: "tok_visa", brand: "visa", last4: "4242" },
  "5555555555554444": { token: "tok_mastercard", brand: "mastercard", last4: "4444" },
  "378282246310005": { token: "tok_amex", brand: "amex", last4: "0005" },
  "4000000000000002": { token: "tok_chargeDeclined", brand: "visa", last4: "0002" },
  "4000000000009995": { token: "tok_chargeDeclinedInsufficientFunds", brand: "visa", last4: "9995" },
  "4000000000000069": { token: "tok_chargeDeclinedExpiredCard", brand: "visa", last4: "0069" },
  "4000000000000127": { token: "tok_chargeDeclinedIncorrectCvc", brand: "visa", last4: "0127" },
};

const TOKENS = new Map(Object.values(TEST_CARDS).map((card) => [card.token, card]));
/** Stripe's test PaymentMethod ids name the same cards: pm_card_visa, pm_card_chargeDeclined, … */
const tokenFor = (token: string) => (token.startsWith("pm_card_") ? `tok_${token.slice("pm_card_".length)}` : token);

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Stripe.js's checks before a token is made, with its messages. */
function tokenizeCard(card: TestCardFields, now = new Date()): string {
  const number = card.number.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) {
    throw new CardError("Your card number is incorrect.", "incorrect_number");
  }
  const month = Number(card.expMonth);
  if (!/^\d{1,2}$/.test(card.expMonth.trim()) || month < 1 || month > 12) {
    throw new CardError("Your card's expiration month is invalid.", "invalid_expiry_month");
  }
  const yearText = card.expYear.trim();
  if (!/^(\d{2}|\d{4})$/.test(yearText)) {
    throw new CardError("Your card's expiration year is invalid.", "invalid_expiry_year");
  }
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  const thisYear = now.getUTCFullYear();
  if (year < thisYear || year > thisYear + 50) {
    throw new CardError("Your card's expiration year is invalid.", "invalid_expiry_year");
  }
  if (year === thisYear && month < now.getUTCMonth() + 1) {
    throw new CardError("Your card's expiration date is in the past.", "invalid_expiry_year");
  }
  const cvcLength = number.startsWith("34") || number.startsWith("37") ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(card.cvc.trim())) {
    throw new CardError("Your card's security code is invalid.", "invalid_cvc");
  }
  const known = TEST_CARDS[number];
  if (!known) {
    throw new CardError(
      "Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.",
      "card_declined",
    );
  }
  return known.token;
}

/** The card a test token or test PaymentMethod id stands for; declined ones as Stripe declines them. */
function cardFor(token: string): TestCard {
  const name = tokenFor(token.trim());
  const decline = DECLINES[name];
  if (decline) throw new CardError(decline.message, decline.code);
  const card = TOKENS.get(name);
  if (!card) throw new CardError(CARD_NOT_SAVED, "resource_missing");
  return card;
}

const fakeId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

/** Stripe keeps an idempotency key's answer for 24 hours. */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Stripe's idempotency, offline: the first request with a key makes its result; a repeat with the
 * same parameters gets that result again (nothing new is made), one with other parameters is refused
 * as Stripe refuses it. Declines are not kept: they follow from the token alone.
 */
function createIdempotencyCache(now: () => number) {
  const answers = new Map<string, { at: number; parameters: string; result: unknown }>();
  return <Result>(key: string, parameters: unknown, make: () => Result): Result => {
    for (const [kept, answer] of answers) if (now() - answer.at > KEY_LIFETIME_MS) answers.delete(kept);
    const asked = JSON.stringify(parameters);
    const answer = answers.get(key);
    if (answer) {
      if (answer.parameters !== asked) {
        throw new PaymentProviderError(
          "Keys for idempotent requests can only be used with the same parameters they were first used with.",
        );
      }
      return answer.result as Result;
    }
    const result = make();
    answers.set(key, { at: now(), parameters: asked, result });
    return result;
  };
}

export function createTestCardProvider({ now = Date.now } = {}): TestCardPayments {
  const idempotent = createIdempotencyCache(now);
  const customers = new Map<string, CardHolder>();
  return {
    provider: "test",
    tokenizeCard: (card) => tokenizeCard(card),
    async saveCard({ token, holder, idempotencyKey }): Promise<SavedCard> {
      const card = cardFor(token);
      return idempotent(`customer-${idempotencyKey}`, { token, holder }, () => {
        const customerId = fakeId("cus");
        customers.set(customerId, holder);
        return { customerId, paymentMethodId: fakeId("pm"), brand: card.brand, last4: card.last4 };
      });
    },
    async replaceCard({ customerId, token, subscriptionId, idempotencyKey }): Promise<SavedCard> {
      const card = cardFor(token);
      return idempotent(`source-${idempotencyKey}`, { customerId, token, subscriptionId }, () => ({
        customerId,
        paymentMethodId: fakeId("pm"),
        brand: card.brand,
        last4: card.last4,
      }));
    },
    async startSubscription({ customerId, paymentMethodId, trialDays, renewal = false, idempotencyKey }) {
      return idempotent(`subscription-${idempotencyKey}`, { customerId, paymentMethodId, trialDays, renewal }, () => ({
        subscriptionId: fakeId("sub"),
        // A renewal is charged at once (the test cards that reach here are accepted ones).
        status: renewal ? ("active" as const) : ("trialing" as const),
        trialEndsAt: new Date(now() + (renewal ? 0 : trialDays) * 24 * 60 * 60 * 1000),
      }));
    },
    async discardCustomer(customerId) {
      customers.delete(customerId);
    },
    listCustomers: () => [...customers].map(([id, holder]) => ({ id, holder })),
  };
}

export { tokenizeCard as tokenizeTestCard };
