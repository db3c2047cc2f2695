import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { blockedMessage } from "~/payments/subscriptions/standing";
import { ErrorSummary } from "./error-summary";
import { LinkedText, linkedParts } from "./linked-text";
import { FieldError } from "./text-input";

const html = (text: string) => renderToStaticMarkup(createElement(LinkedText, { text }));

describe("LinkedText", () => {
  it("links each of our pages a message names, and nothing else", () => {
    expect(html("Update your card at /account/card to bid again.")).toBe(
      'Update your card at <a href="/account/card">/account/card</a> to bid again.',
    );
    expect(html("See /auctions/12/lots and /staff/invoices.")).toBe(
      'See <a href="/auctions/12/lots">/auctions/12/lots</a> and <a href="/staff/invoices">/staff/invoices</a>.',
    );
    expect(html("No path here, 1/2 done.")).toBe("No path here, 1/2 done.");
    expect(linkedParts("https://example.com/account/card")).toEqual(["https://example.com/account/card"]);
    expect(linkedParts("a/account/card")).toEqual(["a/account/card"]);
  });

  it("links the card page in every refusal a held-back seller reads", () => {
    for (const reason of ["overdue", "cancelled"] as const) {
      for (const action of ["bid", "accept"] as const) {
        expect(html(blockedMessage(reason, action))).toContain('<a href="/account/card">/account/card</a>');
      }
    }
    const summary = renderToStaticMarkup(
      createElement(ErrorSummary, { formErrors: [blockedMessage("overdue", "bid")] }),
    );
    expect(summary).toContain('<a href="/account/card">/account/card</a>');
    // Under the field too (a refused minimum): the error beside the control links the page.
    const fieldError = renderToStaticMarkup(
      createElement(FieldError, { id: "minimum-error", errors: [blockedMessage("overdue", "bid")] }),
    );
    expect(fieldError).toContain('<a href="/account/card">/account/card</a>');
  });
});
