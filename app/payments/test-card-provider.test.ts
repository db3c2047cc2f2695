import { describe, expect, it } from "vitest";
import { CardError, PaymentProviderError } from "./payments";
import { createTestCardProvider, tokenizeTestCard } from "./test-card-provider.server";

const provider = createTestCardProvider();
const holder = { name: "Foothills", email: "office@foothills.example", reference: "r1" };
const card = (number: string, changes: Partial<{ expMonth: string; expYear: string; cvc: string }> = {}) => ({
  number,
  expMonth: "12",
  expYear: String((new Date().getUTCFullYear() + 2) % 100),
  cvc: "123",
  ...changes,
});

async function save(number: string) {
  const token = provider.tokenizeCard(card(number));
  return provider.saveCard({ token, holder, idempotencyKey: `key-${number}` });
}

describe("test card provider (Stripe's test cards, offline)", () => {
  it("saves 4242 4242 4242 4242 and keeps only ids, brand and last four", async () => {
    const saved = await save("4242 4242 4242 4242");
    expect(saved).toMatchObject({ brand: "visa", last4: "4242" });
    expect(saved.customerId).toMatch(/^cus_test_/);
    expect(JSON.stringify(saved)).not.toContain("4242424242424242");
    // The same request again gives the same customer (idempotent like Stripe's idempotency keys).
    expect(await save("4242 4242 4242 4242")).toEqual(saved);
  });

  it.each([
    ["4000 0000 0000 0002", "Your card was declined.", "card_declined"],
    ["4000 0000 0000 9995", "Your card has insufficient funds.", "card_declined"],
    ["4000 0000 0000 0069", "Your card has expired.", "expired_card"],
    ["4000 0000 0000 0127", "Your card's security code is incorrect.", "incorrect_cvc"],
  ])("declines %s with %s", async (number, message, code) => {
    await expect(save(number)).rejects.toMatchObject({ message, code });
    await expect(save(number)).rejects.toBeInstanceOf(CardError);
  });

  it("accepts Stripe's test tokens and test PaymentMethod ids as sent by API clients", async () => {
    await expect(provider.saveCard({ token: "tok_mastercard", holder, idempotencyKey: "a" })).resolves.toMatchObject({
      brand: "mastercard",
    });
    await expect(provider.saveCard({ token: "pm_card_amex", holder, idempotencyKey: "b" })).resolves.toMatchObject({
      brand: "amex",
    });
    await expect(provider.saveCard({ token: "tok_chargeDeclined", holder, idempotencyKey: "c" })).rejects.toThrow(
      "Your card was declined.",
    );
    await expect(provider.saveCard({ token: "tok_made_up", holder, idempotencyKey: "d" })).rejects.toThrow(CardError);
  });

  it("keeps Stripe's idempotency: one key, one customer; a new key, a new customer; a key reused with other parameters refused", async () => {
    const own = createTestCardProvider();
    const first = await own.saveCard({ token: "tok_visa", holder, idempotencyKey: "attempt-1" });
    expect(await own.saveCard({ token: "tok_visa", holder, idempotencyKey: "attempt-1" })).toEqual(first);
    expect(own.listCustomers()).toEqual([{ id: first.customerId, holder }]);

    const second = await own.saveCard({ token: "tok_mastercard", holder, idempotencyKey: "attempt-2" });
    expect(second.customerId).not.toBe(first.customerId);
    expect(own.listCustomers().map((customer) => customer.id)).toEqual([first.customerId, second.customerId]);

    await expect(own.saveCard({ token: "tok_amex", holder, idempotencyKey: "attempt-1" })).rejects.toBeInstanceOf(
      PaymentProviderError,
    );
    await own.discardCustomer(second.customerId);
    expect(own.listCustomers().map((customer) => customer.id)).toEqual([first.customerId]);
  });

  it("forgets a key after 24 hours, as Stripe does", async () => {
    let now = Date.UTC(2030, 0, 1);
    const own = createTestCardProvider({ now: () => now });
    const first = await own.saveCard({ token: "tok_visa", holder, idempotencyKey: "attempt" });
    now += 24 * 60 * 60 * 1000 + 1;
    const later = await own.saveCard({ token: "tok_visa", holder, idempotencyKey: "attempt" });
    expect(later.customerId).not.toBe(first.customerId);
  });

  it("checks the fields as Stripe.js does before making a token", () => {
    expect(() => tokenizeTestCard(card("4242 4242 4242 4241"))).toThrow("Your card number is incorrect.");
    expect(() => tokenizeTestCard(card("4242424242424242", { expMonth: "13" }))).toThrow(
      "Your card's expiration month is invalid.",
    );
    expect(() => tokenizeTestCard(card("4242424242424242", { expYear: "19" }))).toThrow(
      "Your card's expiration year is invalid.",
    );
    expect(() => tokenizeTestCard(card("4242424242424242", { cvc: "12" }))).toThrow(
      "Your card's security code is invalid.",
    );
    expect(tokenizeTestCard(card("378282246310005", { cvc: "1234" }))).toBe("tok_amex");
    expect(() => tokenizeTestCard(card("4012888888881881"))).toThrow(/test mode, but used a non test/);
  });

  it("replaces a customer's card, keeping the customer, and declines as it does for a new one", async () => {
    const token = provider.tokenizeCard(card("5555 5555 5555 4444"));
    const replaced = await provider.replaceCard({ customerId: "cus_test_1", token, idempotencyKey: "r1" });
    expect(replaced).toMatchObject({ customerId: "cus_test_1", brand: "mastercard", last4: "4444" });
    expect(replaced.paymentMethodId).toMatch(/^pm_test_/);
    expect(await provider.replaceCard({ customerId: "cus_test_1", token, idempotencyKey: "r1" })).toEqual(replaced);
    await expect(
      provider.replaceCard({
        customerId: "cus_test_1",
        token: provider.tokenizeCard(card("4000 0000 0000 0002")),
        idempotencyKey: "r2",
      }),
    ).rejects.toMatchObject({ name: "CardError", message: "Your card was declined." });
  });
});
