/** A card's brand as people write it: "visa" → "Visa", "american_express" → "American express". */
export const brandName = (brand: string | null) =>
  brand ? `${brand[0]?.toUpperCase()}${brand.slice(1).replace("_", " ")}` : "Card";

/** "Visa ending 4242", as the account pages and the audit log show a card; null when no card is known. */
export function cardLabel(brand: string | null, last4: string | null): string | null {
  if (!brand && !last4) return null;
  return `${brandName(brand)} ending ${last4 ?? "…"}`;
}
