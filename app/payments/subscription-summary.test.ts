import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SubscriptionSummary, type SubscriptionView, toSubscriptionView } from "./subscription-summary";
import { blockedMessage, GRACE_NOTICE_TITLE, graceMessage } from "./subscriptions/standing";

// What a past-due seller is told (issue 32): within the grace period that the payment failed and
// bidding goes on until a date, with a link to update the card; after it, that bidding is blocked.

const NOW = new Date("2026-11-25T12:00:00Z");
const row = (graceEndsAt: Date) => ({
  status: "past_due" as const,
  trialEndsAt: null,
  amountCents: 21_000,
  cardBrand: "visa",
  cardLast4: "4242",
  failure: null,
  pastDueSince: new Date("2026-11-23T09:00:00Z"),
  graceEndsAt,
  cancelledAt: null,
  cardProblem: null,
});
const render = (subscription: SubscriptionView, audience: "seller" | "staff" = "seller") =>
  renderToStaticMarkup(createElement(SubscriptionSummary, { subscription, audience }));

describe("the past-due notice", () => {
  it("within the grace period: the payment failed, bidding continues until the date, a link to the card", () => {
    const html = render(toSubscriptionView(row(new Date("2026-11-30T09:00:00Z")), NOW));
    expect(html).not.toContain("Payment overdue");
    expect(html).toContain(GRACE_NOTICE_TITLE);
    expect(html).toContain(
      "Your subscription payment failed on 2026-11-23. You can still bid and accept invitations until 2026-11-30. " +
        'Update your card at <a href="/account/card">/account/card</a> before then to keep bidding',
    );
    expect(render(toSubscriptionView(row(new Date("2026-11-30T09:00:00Z")), NOW), "staff")).toContain(
      "the seller may still bid until then",
    );
  });

  it("after it: overdue, bidding blocked, a link to the card", () => {
    const html = render(toSubscriptionView(row(new Date("2026-11-24T09:00:00Z")), NOW));
    expect(html).toContain("Payment overdue");
    expect(html).not.toContain(GRACE_NOTICE_TITLE);
    expect(html).toContain(
      'Your subscription payment is overdue. Update your card at <a href="/account/card">/account/card</a> to bid again.',
    );
    expect(blockedMessage("overdue", "bid")).toBe(
      "Your subscription payment is overdue. Update your card at /account/card to bid again.",
    );
  });

  it("says 'for now' when the grace period's end is not known", () => {
    expect(graceMessage(null, null)).toContain("You can still bid and accept invitations for now.");
  });
});
