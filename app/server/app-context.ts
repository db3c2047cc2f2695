import { createContext } from "react-router";
import type { Throttles } from "~/accounts/sign-in/throttle.server";
import type { AuctionLive } from "~/auctions/live/auction-live-hub";
import type { Messaging } from "~/messaging/messaging.server";
import type { Payments } from "~/payments/payments";
import type { SessionStore } from "~/sessions/session.server";
import type { Database } from "~db/database.server";
import type { Environment } from "../platform/env.server";

/** What the server hands every loader and action (injected, so tests can hand in their own). */
export type AppServices = {
  env: Environment;
  db: Database;
  messaging: Messaging;
  /** Stripe when configured, the offline test card provider otherwise. */
  payments: Payments;
  sessions: SessionStore;
  throttles: Throttles;
  /** Resolves when the database answers; used by /healthz. */
  pingDatabase(): Promise<void>;
  /**
   * The live-updates hub (one per app process: LISTEN on `auction_events`), behind the auctions'
   * event streams. Absent where services are built by hand; the streams then send one view and end.
   */
  auctionLive?: AuctionLive;
};

export const appServicesContext = createContext<AppServices>();

/** The per-request CSP nonce, also used by entry.server to mark React Router's inline scripts. */
export const cspNonceContext = createContext<string>("");

/** The client's address as the load balancer saw it (for throttling). */
export const clientAddressContext = createContext<string>("unknown");
