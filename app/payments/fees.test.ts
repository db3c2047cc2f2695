import { describe, expect, it } from "vitest";
import { GST_PERCENT, SELLER_FEE_LINES, SELLER_FEES, SELLER_FEES_TOTAL } from "./fees";

describe("seller fees", () => {
  it("are the amounts of spec section 9 and add up to $217.35", () => {
    expect(SELLER_FEES).toEqual({ trial: 0, yearlySubscription: 20000, processingFee: 700, gst: 1035 });
    expect(SELLER_FEES_TOTAL).toBe(21735);
    expect(SELLER_FEE_LINES.reduce((sum, line) => sum + line.cents, 0)).toBe(SELLER_FEES_TOTAL);
  });

  it("charge GST at 5% of the subscription and the processing fee", () => {
    expect(Math.round((SELLER_FEES.yearlySubscription + SELLER_FEES.processingFee) * 0.05)).toBe(SELLER_FEES.gst);
    expect(GST_PERCENT).toBe(5);
  });
});
