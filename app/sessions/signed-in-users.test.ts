import { describe, expect, it } from "vitest";
import type { CurrentUser } from "./current-user";
import {
  announceSessionChange,
  createSignedInUsers,
  forgettingAnnounced,
  sessionChangeOf,
} from "./signed-in-users.server";

// The signed-in users a process keeps in memory: never longer than a minute or than the session
// lasts, forgotten on every announced change, and never kept from a read that a change overtook.

const user = (id: number, organizationId: number | null = 10): CurrentUser => ({
  id,
  email: `user${id}@example.com`,
  role: 3,
  firstName: null,
  lastName: null,
  organizationId,
  organizationName: "Example Ltd.",
  isOrganizationAdmin: false,
  timezone: null,
  liveAnnouncements: true,
});
const inAnHour = () => new Date(Date.now() + 3_600_000);

describe("signed-in users kept in memory", () => {
  it("keeps a session's user until the session ends or a minute has passed", () => {
    const kept = createSignedInUsers();
    kept.keep("a", { user: user(1), expiresAt: inAnHour() }, kept.mark());
    expect(kept.get("a")?.user.id).toBe(1);
    expect(kept.get("a", Date.now() + 61_000)).toBeUndefined();
    kept.keep("b", { user: user(2), expiresAt: new Date(Date.now() + 1_000) }, kept.mark());
    expect(kept.get("b", Date.now() + 2_000)).toBeUndefined();
  });

  it("does not keep a read that a change overtook", () => {
    const kept = createSignedInUsers();
    const mark = kept.mark();
    kept.forget({ userId: 99 }); // announced while the session was being read
    kept.keep("a", { user: user(1), expiresAt: inAnHour() }, mark);
    expect(kept.get("a")).toBeUndefined();
  });

  it("forgets one session, a user's sessions, an organization's users, or everything", () => {
    const kept = createSignedInUsers();
    const keep = (idHash: string, id: number, organizationId: number | null) =>
      kept.keep(idHash, { user: user(id, organizationId), expiresAt: inAnHour() }, kept.mark());
    keep("a", 1, 10);
    keep("b", 1, 10);
    keep("c", 2, 10);
    keep("d", 3, 20);
    keep("e", 4, null);
    kept.forget({ idHash: "a" });
    expect(kept.get("a")).toBeUndefined();
    expect(kept.get("b")).toBeDefined();
    kept.forget({ userId: 1 });
    expect(kept.get("b")).toBeUndefined();
    kept.forget({ organizationId: 10 });
    expect(kept.get("c")).toBeUndefined();
    expect(kept.get("d")).toBeDefined();
    kept.forget({ all: true });
    expect(kept.get("d")).toBeUndefined();
    expect(kept.get("e")).toBeUndefined();
  });

  it("keeps a renewed session's new end", () => {
    const kept = createSignedInUsers();
    kept.keep("a", { user: user(1), expiresAt: new Date(Date.now() + 1_000) }, kept.mark());
    const renewed = inAnHour();
    kept.renewed("a", renewed);
    expect(kept.get("a", Date.now() + 2_000)?.expiresAt).toBe(renewed);
  });

  it("reads announcements, and takes anything unreadable as 'forget everything'", () => {
    expect(sessionChangeOf('{"userId":5}')).toEqual({ userId: 5 });
    expect(sessionChangeOf('{"organizationId":7}')).toEqual({ organizationId: 7 });
    expect(sessionChangeOf('{"idHash":"ab"}')).toEqual({ idHash: "ab" });
    for (const payload of ["", "null", "{", '{"userId":"5"}', "[]"]) {
      expect(sessionChangeOf(payload)).toEqual({ all: true });
    }
  });

  it("forgets what the request it serves announced once its work is done, before its own announcement is back", async () => {
    const kept = createSignedInUsers();
    const notified: string[] = [];
    // The transaction's connection: the announcement goes out at its commit, and comes back later.
    const tx = { execute: async (query: unknown) => void notified.push(String(query)) };
    kept.keep("a", { user: user(1), expiresAt: inAnHour() }, kept.mark());
    kept.keep("b", { user: user(2), expiresAt: inAnHour() }, kept.mark());
    const answer = await forgettingAnnounced(
      async () => {
        await announceSessionChange(tx as never, { userId: 1 });
        // Still kept while the request's work goes on (its transaction has not committed yet).
        expect(kept.get("a")?.user.id).toBe(1);
        return "redirect";
      },
      (change) => kept.forget(change),
    );
    expect(answer).toBe("redirect");
    expect(notified).toHaveLength(1);
    expect(kept.get("a")).toBeUndefined();
    expect(kept.get("b")?.user.id).toBe(2);
    // Outside a request (a worker's job) only the announcement goes out.
    await announceSessionChange(tx as never, { userId: 2 });
    expect(kept.get("b")?.user.id).toBe(2);
    // A request that fails forgets what it announced all the same.
    await expect(
      forgettingAnnounced(
        async () => {
          await announceSessionChange(tx as never, { userId: 2 });
          throw new Error("refused");
        },
        (change) => kept.forget(change),
      ),
    ).rejects.toThrow("refused");
    expect(kept.get("b")).toBeUndefined();
  });
});
