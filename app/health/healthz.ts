import { logger } from "~/platform/logger.server";
import { appServicesContext } from "~/server/app-context";
import type { Route } from "./+types/healthz";

const noStore = { "Cache-Control": "no-store" };

/** 200 only when the database answers within two seconds (the load balancer's health check). */
export async function loader({ context }: Route.LoaderArgs) {
  const { pingDatabase } = context.get(appServicesContext);
  try {
    await Promise.race([
      pingDatabase(),
      new Promise((_, reject) => setTimeout(() => reject(new Error("database ping timed out")), 2_000).unref()),
    ]);
    return Response.json({ status: "ok" }, { headers: noStore });
  } catch (error) {
    logger.error({ err: error }, "health check failed");
    return Response.json({ status: "unavailable" }, { status: 503, headers: noStore });
  }
}
