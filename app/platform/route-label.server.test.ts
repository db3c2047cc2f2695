import { describe, expect, it } from "vitest";
import { createRouteLabeller, UNMATCHED_ROUTE } from "./route-label.server";

// A server build's route manifest, flat with parent ids, as React Router writes it.
const routes = {
  root: { id: "root", path: "" },
  "public/home": { id: "public/home", parentId: "root", index: true },
  "reset-password": { id: "reset-password", parentId: "root", path: "reset-password/:passwordResetToken" },
  auctions: { id: "auctions", parentId: "root", path: "auctions" },
  "auctions/view": { id: "auctions/view", parentId: "auctions", path: ":auctionId" },
  "auctions/lot-bid": { id: "auctions/lot-bid", parentId: "auctions", path: ":auctionId/lots/:lot/bid" },
  "api/services": { id: "api/services", parentId: "root", path: "api/services" },
  "api/not-found": { id: "api/not-found", parentId: "root", path: "api/*" },
};

describe("route labels", () => {
  const labelOf = createRouteLabeller({ routes } as never);

  it("names a request by its route's pattern, never by the values in its path", () => {
    expect(labelOf("/reset-password/3f9a0c1d2e")).toBe("/reset-password/:passwordResetToken");
    expect(labelOf("/auctions/41")).toBe("/auctions/:auctionId");
    expect(labelOf("/auctions/41/lots/2/bid")).toBe("/auctions/:auctionId/lots/:lot/bid");
    expect(labelOf("/")).toBe("/");
  });

  it("gives every unknown path one label", () => {
    expect(labelOf("/api/services")).toBe("/api/services");
    expect(labelOf("/api/whatever/123")).toBe("/api/*");
    expect(labelOf("/no/such/page")).toBe(UNMATCHED_ROUTE);
  });

  it("answers a path it saw before from memory, a number standing for any number", () => {
    const labelOf = createRouteLabeller({ routes } as never);
    expect(labelOf("/auctions/41")).toBe("/auctions/:auctionId");
    expect(labelOf("/auctions/42")).toBe("/auctions/:auctionId");
    expect(labelOf("/auctions/42/lots/3/bid")).toBe("/auctions/:auctionId/lots/:lot/bid");
    expect(labelOf("/reset-password/3f9a0c1d2e")).toBe("/reset-password/:passwordResetToken");
    expect(labelOf("/reset-password/3f9a0c1d2e")).toBe("/reset-password/:passwordResetToken");
    // Far more paths than it keeps: still the right labels.
    for (let index = 0; index < 5_000; index += 1) {
      expect(labelOf(`/reset-password/token-${index}`)).toBe("/reset-password/:passwordResetToken");
    }
  });

  it("keeps numbers as they are when a route spells one", () => {
    const labelOf = createRouteLabeller({
      routes: { ...routes, "auctions/2026": { id: "auctions/2026", parentId: "auctions", path: "2026" } },
    } as never);
    expect(labelOf("/auctions/41")).toBe("/auctions/:auctionId");
    expect(labelOf("/auctions/2026")).toBe("/auctions/2026");
    expect(labelOf("/auctions/41")).toBe("/auctions/:auctionId");
  });
});
