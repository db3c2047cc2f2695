import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUYER_AUCTION_FEE_CENTS } from "~/payments/fees";
import {
  creditNoteAmounts,
  documentNumber,
  gstOf,
  invoiceAmounts,
  parseDocumentNumber,
  remainingOf,
} from "./invoice-amounts";

describe("GST at 5%, rounded half up to the cent", () => {
  it("makes the buyer's fee $250.00 + $12.50 = $262.50", () => {
    expect(BUYER_AUCTION_FEE_CENTS).toBe(25_000);
    expect(invoiceAmounts(BUYER_AUCTION_FEE_CENTS)).toEqual({
      amountCents: 25_000,
      gstCents: 1_250,
      totalCents: 26_250,
    });
  });

  it.each([
    [0, 0],
    [1, 0], // 0.05 cent
    [9, 0], // 0.45 cent
    [10, 1], // 0.5 cent rounds up
    [29, 1], // 1.45
    [30, 2], // 1.5 rounds up
    [100, 5],
    [1_999, 100], // 99.95 → 100
    [12_345, 617], // 617.25
    [12_350, 618], // 617.5 → 618
    [99_999_999, 5_000_000], // 4,999,999.95
  ])("%i cents → %i cents of GST", (cents, gst) => {
    expect(gstOf(cents)).toBe(gst);
  });

  it("agrees with exact decimal arithmetic for every amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), (cents) => {
        // 5% of cents is cents/20: its remainder in twentieths decides the rounding (10/20 = half up).
        const whole = Math.floor(cents / 20);
        expect(gstOf(cents)).toBe(cents % 20 >= 10 ? whole + 1 : whole);
        const { totalCents } = invoiceAmounts(cents);
        expect(totalCents).toBe(cents + gstOf(cents));
      }),
    );
  });

  it("refuses what is not whole, non-negative cents", () => {
    expect(() => gstOf(-1)).toThrow(RangeError);
    expect(() => gstOf(1.5)).toThrow(RangeError);
  });
});

describe("credit notes", () => {
  const invoice = { feeCents: 25_000, gstCents: 1_250 };

  it("credits part of an invoice with 5% GST, and the rest with the rest of the GST", () => {
    const first = creditNoteAmounts(10_000, remainingOf(invoice, []));
    expect(first).toEqual({ amountCents: 10_000, gstCents: 500, totalCents: 10_500 });
    const rest = remainingOf(invoice, first ? [first] : []);
    expect(rest).toEqual({ amountCents: 15_000, gstCents: 750 });
    expect(creditNoteAmounts(15_000, rest)).toEqual({ amountCents: 15_000, gstCents: 750, totalCents: 15_750 });
  });

  it("refuses more than remains, nothing, and fractions", () => {
    expect(creditNoteAmounts(25_001, remainingOf(invoice, []))).toBeNull();
    expect(creditNoteAmounts(0, remainingOf(invoice, []))).toBeNull();
    expect(creditNoteAmounts(-5, remainingOf(invoice, []))).toBeNull();
    expect(creditNoteAmounts(10.5, remainingOf(invoice, []))).toBeNull();
    expect(creditNoteAmounts(1, { amountCents: 0, gstCents: 0 })).toBeNull();
  });

  it("never credits more than the invoice, to the cent, however it is split", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 30_000 }), { maxLength: 40 }), (amounts) => {
        const notes: { amountCents: number; gstCents: number; totalCents: number }[] = [];
        for (const amount of amounts) {
          const note = creditNoteAmounts(amount, remainingOf(invoice, notes));
          if (note) notes.push(note);
        }
        const left = remainingOf(invoice, notes);
        expect(left.amountCents).toBeGreaterThanOrEqual(0);
        expect(left.gstCents).toBeGreaterThanOrEqual(0);
        if (left.amountCents === 0) expect(left.gstCents).toBe(0);
        // Crediting the rest leaves exactly nothing.
        if (left.amountCents > 0) {
          const last = creditNoteAmounts(left.amountCents, left);
          expect(remainingOf(invoice, [...notes, last as never])).toEqual({ amountCents: 0, gstCents: 0 });
        }
      }),
    );
  });
});

describe("document numbers", () => {
  it("are the prefix and at least six digits", () => {
    expect(documentNumber("INV", 1)).toBe("INV-000001");
    expect(documentNumber("CN", 42)).toBe("CN-000042");
    expect(documentNumber("INV", 1_234_567)).toBe("INV-1234567");
    expect(() => documentNumber("INV", 0)).toThrow(RangeError);
  });

  it("are read back only in their own spelling", () => {
    expect(parseDocumentNumber("INV-000001")).toEqual({ prefix: "INV", sequence: 1 });
    expect(parseDocumentNumber("CN-000042")).toEqual({ prefix: "CN", sequence: 42 });
    for (const nonsense of ["INV-1", "INV-000000", "inv-000001", "INV-0000001", "XX-000001", "INV-000001.pdf", ""]) {
      expect(parseDocumentNumber(nonsense)).toBeNull();
    }
  });
});
