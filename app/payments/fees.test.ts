import { describe, expect, it } from "vitest";
import { formatCents, GST_PERCENT, SELLER_FEE_LINES, SELLER_FEES, SELLER_FEES_TOTAL } from "./fees";

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

describe("formatCents", () => {
  it("formats cents as $0,0.00", () => {
    expect(formatCents(0)).toBe("$0.00");
    expect(formatCents(700)).toBe("$7.00");
    expect(formatCents(1035)).toBe("$10.35");
    expect(formatCents(20000)).toBe("$200.00");
    expect(formatCents(21735)).toBe("$217.35");
    expect(formatCents(5)).toBe("$0.05");
    expect(formatCents(123456789)).toBe("$1,234,567.89");
  });

  it("refuses fractions of a cent", () => {
    expect(() => formatCents(1.5)).toThrow(RangeError);
  });
});
