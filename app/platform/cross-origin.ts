import type { IncomingMessage } from "node:http";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_ORIGIN_MESSAGE = "Requests from other sites are not allowed.";

/**
 * CSRF defence: whether this is a state-changing request that a browser made from another origin
 * (refused). Browsers send Origin (and Sec-Fetch-Site) with every POST; scripts using a bearer token
 * send neither and are not affected. SameSite=Lax cookies are the second layer.
 */
export function isCrossOriginWrite(req: IncomingMessage, appOrigin: string, https: boolean): boolean {
  if (SAFE_METHODS.has(req.method ?? "GET")) return false;
  const fetchSite = req.headers["sec-fetch-site"];
  const origin = req.headers.origin;
  const ownOrigin = `${https ? "https" : "http"}://${req.headers.host}`;
  const crossSite = fetchSite === "cross-site" || fetchSite === "same-site";
  const foreignOrigin = origin !== undefined && origin !== appOrigin && origin !== ownOrigin;
  return crossSite || foreignOrigin;
}
